-- Luck per game and player in the scope ($games, $tournament) (unit apart), with the player's faction and result:
-- the luckiest and unluckiest, the 1,000 rows of largest |z_score| (a season has hundreds of thousands).
SELECT l.game, l.player, l.name, l.faction, l.unit,
       CASE WHEN g.winner = l.player THEN 'win' WHEN g.winner IS NOT NULL THEN 'loss' WHEN g.ended THEN 'draw' END
           AS result,
       l.throws, l.dice, l.luck, l.luck / nullif(sqrt(l.variance), 0) AS z_score
FROM stat_scoped('stat_luck', $games, $tournament) l
JOIN dim_games g ON g.game = l.game
ORDER BY abs(z_score) DESC NULLS LAST, l.game, l.player, l.unit
LIMIT 1000;
