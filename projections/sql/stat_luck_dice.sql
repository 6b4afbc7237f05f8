CREATE TABLE IF NOT EXISTS stat_luck_dice (
    game VARCHAR,
    die VARCHAR,
    purpose VARCHAR,
    unit VARCHAR,
    throws BIGINT,
    dice BIGINT,
    observed DOUBLE,
    expected DOUBLE,
    luck DOUBLE,
    variance DOUBLE,
    label VARCHAR
);
