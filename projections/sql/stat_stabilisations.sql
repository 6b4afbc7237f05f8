CREATE TABLE IF NOT EXISTS stat_stabilisations (
    game VARCHAR,
    seq BIGINT,
    player VARCHAR,
    face VARCHAR,
    ord INTEGER,
    probability DOUBLE,
    shown BOOLEAN
);
