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
