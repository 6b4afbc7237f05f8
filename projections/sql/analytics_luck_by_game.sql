-- Luck per game and player in scope $games (unit apart), with the player's faction and result.
WITH scope AS (SELECT unnest($games::VARCHAR[]) AS game)
SELECT t.game, t.player, any_value(p.name) AS name, any_value(p.faction) AS faction, t.unit,
       any_value(CASE WHEN g.winner = t.player THEN 'win' WHEN g.winner IS NOT NULL THEN 'loss'
                      WHEN g.ended THEN 'draw' END) AS result,
       count(*) AS throws, sum(t.n_dice) AS dice, sum(t.luck) AS luck,
       sum(t.luck) / nullif(sqrt(sum(t.variance)), 0) AS z_score
FROM stat_throws t SEMI JOIN scope s ON s.game = t.game
JOIN dim_games g ON g.game = t.game
LEFT JOIN dim_players p ON p.game = t.game AND p.player = t.player
GROUP BY t.game, t.player, t.unit ORDER BY t.game, t.player, t.unit;
