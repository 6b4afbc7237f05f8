-- Luck per die type, purpose and, for rolls of purpose other, what they were for (label), in the scope
-- ($games, $tournament) (a die's unit: successes or pips; successes on dice that need a face).
SELECT l.die, l.purpose, l.label, l.unit, sum(l.throws) AS throws, sum(l.dice) AS dice, sum(l.observed) AS observed,
       sum(l.expected) AS expected, sum(l.luck) AS luck, sum(l.luck) / nullif(sqrt(sum(l.variance)), 0) AS z_score
FROM stat_scoped('stat_luck_dice', $games, $tournament) l
GROUP BY ALL ORDER BY l.die, l.purpose, l.label NULLS FIRST;
