-- The 9th Age dispel attempts in the scope ($games, $tournament) by number of dice, against the exact odds (fct_dispels.p_dispel).
WITH scope AS (SELECT game FROM stat_scope($games, $tournament))
SELECT d.dice, count(*) AS attempts, count(*) FILTER (WHERE d.dispelled) AS dispelled,
       sum(d.p_dispel) AS expected_dispelled, count(*) FILTER (WHERE d.dispelled) / count(*) AS dispel_rate,
       avg(d.p_dispel) AS expected_dispel_rate
FROM stat_dispels d SEMI JOIN scope s ON s.game = d.game
GROUP BY d.dice ORDER BY d.dice;
