-- The 9th Age casting attempts in the scope ($games, $tournament) by number of dice (stat_casts): passes against the exact
-- odds (fct_casts.p_pass), miscasts against the odds of the trigger in force (bound spells never miscast).
SELECT c.dice, count(*) AS attempts, count(*) FILTER (WHERE c.passed) AS passed, sum(c.p_pass) AS expected_passed,
       count(*) FILTER (WHERE c.passed) / count(*) AS pass_rate, avg(c.p_pass) AS expected_pass_rate,
       count(*) FILTER (WHERE c.miscast) AS miscasts, sum(c.p_miscast) AS expected_miscasts
FROM stat_scoped('stat_casts', $games, $tournament) c
GROUP BY c.dice ORDER BY c.dice;
