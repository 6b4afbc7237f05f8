CREATE TABLE IF NOT EXISTS stat_dispels (
    game VARCHAR,
    seq BIGINT,
    player VARCHAR,
    dice INTEGER,
    dispelled BOOLEAN,
    p_dispel DOUBLE
);
