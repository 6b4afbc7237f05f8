-- Claustrophobia initiatives in the scope ($games, $tournament) (stat_initiative, from fct_initiative): per warrior (and
-- all), the action dice assigned, how many exhausted the warrior (a die on an unavailable line, R102), the
-- rate with its Wilson interval, and the dice set aside.
WITH dice AS (SELECT i.* FROM stat_scoped('stat_initiative', $games, $tournament) i),
rates AS (
    SELECT coalesce(warrior, 'all warriors') AS warrior, grouping(warrior) AS total,
           count(*) AS dice, count(*) FILTER (WHERE exhausted) AS exhausted
    FROM dice WHERE NOT set_aside GROUP BY ROLLUP (warrior) HAVING count(*) > 0
)
SELECT r.warrior, r.dice, r.exhausted, r.exhausted / r.dice AS rate, stat_wilson_low(r.exhausted, r.dice) AS ci_low,
       stat_wilson_high(r.exhausted, r.dice) AS ci_high,
       CASE WHEN r.total = 1 THEN (SELECT count(*) FROM dice WHERE set_aside) END AS set_aside
FROM rates r ORDER BY r.total, r.warrior;
