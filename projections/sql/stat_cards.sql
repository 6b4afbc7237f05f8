CREATE TABLE IF NOT EXISTS stat_cards (
    game VARCHAR,
    seq BIGINT,
    deck VARCHAR,
    card VARCHAR
);
