-- The games whose statistics a refresh computes again (projections.stats): every game with events (or a
-- header) after stat_position, and what the statistics tables (stat_*.sql, each refreshing its own rows of
-- these games after this file, in one transaction) read of them. A run that stopped before the refresh
-- leaves stat_position behind, so the next run catches up.

CREATE TEMP TABLE IF NOT EXISTS stat_touched (game VARCHAR);

DELETE FROM stat_touched;

INSERT INTO stat_touched
SELECT game FROM dim_games WHERE notification_id > (SELECT coalesce(max(notification_id), -1) FROM stat_position)
UNION
SELECT game FROM fct_events WHERE notification_id > (SELECT coalesce(max(notification_id), -1) FROM stat_position);

-- The number of games to refresh (none: nothing more to do; the projector publishes when it is not zero), and
-- those games as a list when they are few, given to the statements below as $few: the per-game views
-- (casts_of, dispels_of) then compute theirs alone; NULL when many (a rebuild): every game, the semi joins
-- keeping the touched. Every scan of a large table reads stat_rows_of(table, $few) (a few games' rows alone).
SELECT count(*), CASE WHEN count(*) <= 64 THEN list(game) END FROM stat_touched;

-- The dice in force of the touched games with each face's value: its number on a numbered die (every face
-- a number, e.g. the d6), else 1 for the faces success and crit and 0 for the others.
CREATE OR REPLACE TEMP TABLE stat_touched_dice AS
WITH dice AS (
    SELECT d.game, d.die, d.face, d.sides, d.total::DOUBLE AS total, d.ord,
           bool_and(regexp_full_match(d.face, '-?[0-9]+')) OVER (PARTITION BY d.game, d.die) AS numbered
    FROM stat_rows_of('dim_dice', $few) d SEMI JOIN stat_touched t ON t.game = d.game
)
SELECT *, CASE WHEN numbered THEN face::DOUBLE WHEN face IN ('success', 'crit') THEN 1.0 ELSE 0.0 END AS value
FROM dice;

-- Every throw of the touched games: the dice of each roll as they first showed, and each re-roll; with the
-- face a die of the roll must reach to count as a success (`needs`, a roll of purpose other), if any.
CREATE OR REPLACE TEMP TABLE stat_touched_rolls AS
SELECT * FROM stat_rows_of('fct_rolls', $few) r SEMI JOIN stat_touched t ON t.game = r.game;

CREATE OR REPLACE TEMP TABLE stat_touched_shown AS
SELECT f.game, f.roll_seq AS seq, f.roll_seq, f.player, f.purpose, f.die, 'roll' AS kind, f.original AS face,
       r.needs, r.label
FROM stat_rows_of('fct_dice', $few) f SEMI JOIN stat_touched t ON t.game = f.game
LEFT JOIN stat_touched_rolls r ON r.game = f.game AND r.seq = f.roll_seq
UNION ALL
SELECT e.game, e.seq, r.seq, r.player, r.purpose, r.die, 'reroll', e.payload ->> 'face', r.needs, r.label
FROM stat_rows_of('fct_events', $few) e SEMI JOIN stat_touched t ON t.game = e.game
JOIN stat_touched_rolls r ON r.game = e.game AND r.seq = (e.payload ->> 'roll')::BIGINT
WHERE e.type = 'DieRerolled' AND NOT e.taken_back;

-- The refresh reads the games above from here on: the position moves on in the same transaction.
DELETE FROM stat_position;

INSERT INTO stat_position
SELECT greatest((SELECT coalesce(max(notification_id), 0) FROM fct_events),
                (SELECT coalesce(max(notification_id), 0) FROM dim_games));
