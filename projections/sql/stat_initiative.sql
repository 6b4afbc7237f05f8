CREATE TABLE IF NOT EXISTS stat_initiative (
    game VARCHAR,
    seq BIGINT,
    warrior VARCHAR,
    exhausted BOOLEAN,
    set_aside BOOLEAN
);
