-- Per game: the first player (who names the game's first event naming a player: the first activation in
-- Tornscape, the first casting roll in The 9th Age, the first initiative roll in Claustrophobia).
CREATE TABLE IF NOT EXISTS stat_games (
    game VARCHAR,
    first_player VARCHAR,
    first_seq BIGINT
);
