-- Luck per player (by name, across the games of the scope ($games, $tournament)) and unit: observed minus expected over
-- every throw (stat_throws), and z_score = luck / sd of that sum; |z_score| >= 2 happens to 1 player in 20 by chance.
SELECT coalesce(l.name, l.player) AS player, l.unit, count(DISTINCT l.game) AS games, sum(l.throws) AS throws,
       sum(l.dice) AS dice, sum(l.observed) AS observed, sum(l.expected) AS expected, sum(l.luck) AS luck,
       sum(l.luck) / nullif(sqrt(sum(l.variance)), 0) AS z_score,
       CASE WHEN sum(l.luck) / nullif(sqrt(sum(l.variance)), 0) >= 2 THEN 'luckier than expected'
            WHEN sum(l.luck) / nullif(sqrt(sum(l.variance)), 0) <= -2 THEN 'unluckier than expected'
            ELSE 'about as expected' END AS verdict
FROM stat_scoped('stat_luck', $games, $tournament) l
GROUP BY ALL ORDER BY l.unit, luck DESC, player;
