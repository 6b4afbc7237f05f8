-- Luck per player (by name, across the games of scope $games) and unit: observed minus expected over
-- every throw (stat_throws), and z_score = luck / sd of that sum; |z_score| >= 2 happens to 1 player in 20 by chance.
WITH scope AS (SELECT unnest($games::VARCHAR[]) AS game)
SELECT coalesce(p.name, t.player) AS player, t.unit, count(DISTINCT t.game) AS games, count(*) AS throws,
       sum(t.n_dice) AS dice, sum(t.observed) AS observed, sum(t.expected) AS expected, sum(t.luck) AS luck,
       sum(t.luck) / nullif(sqrt(sum(t.variance)), 0) AS z_score,
       CASE WHEN sum(t.luck) / nullif(sqrt(sum(t.variance)), 0) >= 2 THEN 'luckier than expected'
            WHEN sum(t.luck) / nullif(sqrt(sum(t.variance)), 0) <= -2 THEN 'unluckier than expected'
            ELSE 'about as expected' END AS verdict
FROM stat_throws t SEMI JOIN scope s ON s.game = t.game
LEFT JOIN dim_players p ON p.game = t.game AND p.player = t.player
GROUP BY ALL ORDER BY t.unit, luck DESC, player;
