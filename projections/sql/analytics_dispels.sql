-- The 9th Age dispel attempts in the scope ($games, $tournament) by number of dice, against the exact odds (fct_dispels.p_dispel).
SELECT d.dice, count(*) AS attempts, count(*) FILTER (WHERE d.dispelled) AS dispelled,
       sum(d.p_dispel) AS expected_dispelled, count(*) FILTER (WHERE d.dispelled) / count(*) AS dispel_rate,
       avg(d.p_dispel) AS expected_dispel_rate
FROM stat_scoped('stat_dispels', $games, $tournament) d
GROUP BY d.dice ORDER BY d.dice;
