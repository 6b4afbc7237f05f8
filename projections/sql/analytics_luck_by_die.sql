-- Luck per die type and purpose in scope $games (a die's unit: successes or pips).
WITH scope AS (SELECT unnest($games::VARCHAR[]) AS game)
SELECT t.die, t.purpose, t.unit, count(*) AS throws, sum(t.n_dice) AS dice, sum(t.observed) AS observed,
       sum(t.expected) AS expected, sum(t.luck) AS luck, sum(t.luck) / nullif(sqrt(sum(t.variance)), 0) AS z_score
FROM stat_throws t SEMI JOIN scope s ON s.game = t.game
GROUP BY ALL ORDER BY t.die, t.purpose;
