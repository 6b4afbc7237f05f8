-- The cumulative luck of each player through game $game up to seq $upto (NULL: all), throw by throw (big:
-- |z_score| >= 2 for that throw).
SELECT t.seq, t.turn, t.player, coalesce(p.name, t.player) AS name, t.unit, t.purpose, t.die, t.kind, t.n_dice,
       t.observed, t.expected, t.luck, t.z_score, abs(t.z_score) >= 2 AS big,
       sum(t.luck) OVER (PARTITION BY t.player, t.unit ORDER BY t.seq ROWS UNBOUNDED PRECEDING) AS cumulative
FROM stat_throws t LEFT JOIN dim_players p ON p.game = t.game AND p.player = t.player
WHERE t.game = $game AND ($upto IS NULL OR t.seq <= $upto)
ORDER BY t.seq;
