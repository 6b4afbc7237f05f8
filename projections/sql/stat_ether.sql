CREATE TABLE IF NOT EXISTS stat_ether (
    game VARCHAR,
    player VARCHAR,
    explorations BIGINT,
    successes BIGINT,
    ether BIGINT
);
