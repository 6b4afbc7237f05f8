-- Per ended game, one row per player: the player's faction, the opponent's and the result (win, draw, loss).
CREATE TABLE IF NOT EXISTS stat_results (
    game VARCHAR,
    player VARCHAR,
    faction VARCHAR,
    opponent VARCHAR,
    result VARCHAR
);
