-- Per game and turn, from the events carrying `at`: from the turn's first time to the next turn's first
-- time (the last turn: to its own last time).
CREATE TABLE IF NOT EXISTS stat_turns (
    game VARCHAR,
    turn BIGINT,
    started_at TIMESTAMPTZ,
    ended_at TIMESTAMPTZ,
    seconds DOUBLE,
    timed_events BIGINT
);

DELETE FROM stat_turns WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_turns
WITH timed AS (
    SELECT e.game, e.turn, e.played_at AS at_time
    FROM stat_rows_of('fct_events', $few) e SEMI JOIN stat_touched t ON t.game = e.game
    WHERE e.turn > 0 AND NOT e.taken_back
), turns AS (
    SELECT game, turn, min(at_time) AS first_at, max(at_time) AS last_at, count(*) AS n
    FROM timed WHERE at_time IS NOT NULL GROUP BY game, turn
)
SELECT game, turn, first_at, coalesce(lead(first_at) OVER w, last_at),
       epoch(coalesce(lead(first_at) OVER w, last_at)) - epoch(first_at), n
FROM turns WINDOW w AS (PARTITION BY game ORDER BY turn);
