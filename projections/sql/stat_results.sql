-- Per ended game, one row per player: the player's faction, the opponent's and the result (win, draw, loss).
CREATE TABLE IF NOT EXISTS stat_results (
    game VARCHAR,
    player VARCHAR,
    faction VARCHAR,
    opponent VARCHAR,
    result VARCHAR
);

DELETE FROM stat_results WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_results
SELECT p.game, p.player, p.faction, o.faction,
       CASE WHEN g.winner = p.player THEN 'win' WHEN g.winner IS NULL THEN 'draw' ELSE 'loss' END
FROM stat_rows_of('dim_players', $few) p SEMI JOIN stat_touched t ON t.game = p.game
JOIN dim_games g ON g.game = p.game
JOIN dim_players o ON o.game = p.game AND o.player <> p.player
WHERE g.ended;
