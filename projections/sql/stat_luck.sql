-- The throws of stat_throws summed per game, player and unit (name and faction: the player's), and per
-- game, die, purpose and unit: what the luck of a tournament or a season adds up, a row a game and player.
CREATE TABLE IF NOT EXISTS stat_luck (
    game VARCHAR,
    player VARCHAR,
    name VARCHAR,
    faction VARCHAR,
    unit VARCHAR,
    throws BIGINT,
    dice BIGINT,
    observed DOUBLE,
    expected DOUBLE,
    luck DOUBLE,
    variance DOUBLE
);
