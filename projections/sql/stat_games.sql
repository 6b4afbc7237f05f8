-- Per game: the first player (who names the game's first event naming a player: the first activation in
-- Tornscape, the first casting roll in The 9th Age, the first initiative roll in Claustrophobia).
CREATE TABLE IF NOT EXISTS stat_games (
    game VARCHAR,
    first_player VARCHAR,
    first_seq BIGINT
);

DELETE FROM stat_games WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_games
SELECT e.game, arg_min(e.player, e.seq), min(e.seq)
FROM stat_rows_of('fct_events', $few) e SEMI JOIN stat_touched t ON t.game = e.game
WHERE e.player IS NOT NULL AND NOT e.taken_back
GROUP BY e.game;
