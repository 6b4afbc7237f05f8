-- Outcomes against their exact odds in the scope ($games, $tournament), one test each, Holm over the tests with enough data:
-- stabilisation outcomes (chi-square over the faces), casting passes, dispels and miscasts (the count
-- against the sum of its probabilities, variance sum p(1 - p), normal approximation).
WITH stab AS (
    SELECT s.face, count(*) FILTER (WHERE s.shown) AS shown, sum(s.probability) AS expected_count
    FROM stat_scoped('stat_stabilisations', $games, $tournament) s GROUP BY s.face
), casts AS (
    SELECT c.passed, c.p_pass, c.miscast, c.p_miscast FROM stat_scoped('stat_casts', $games, $tournament) c
), dispels AS (
    SELECT d.dispelled, d.p_dispel FROM stat_scoped('stat_dispels', $games, $tournament) d
), checks AS (
    SELECT 'stabilisation outcomes' AS test, sum(shown) AS n, NULL::DOUBLE AS observed, NULL::DOUBLE AS expected,
           sum((shown - expected_count) ** 2 / expected_count) FILTER (WHERE expected_count > 0) AS statistic,
           (count(*) FILTER (WHERE expected_count > 0) - 1)::INTEGER AS df, min(expected_count) AS min_expected
    FROM stab HAVING sum(shown) > 0
    UNION ALL
    SELECT 'casting passes', count(*), count(*) FILTER (WHERE passed), sum(p_pass),
           (count(*) FILTER (WHERE passed) - sum(p_pass)) ** 2 / nullif(sum(p_pass * (1 - p_pass)), 0), 1,
           least(sum(p_pass), sum(1 - p_pass))
    FROM casts HAVING count(*) > 0
    UNION ALL
    SELECT 'miscasts', count(*), count(*) FILTER (WHERE miscast), sum(p_miscast),
           (count(*) FILTER (WHERE miscast) - sum(p_miscast)) ** 2 / nullif(sum(p_miscast * (1 - p_miscast)), 0), 1,
           least(sum(p_miscast), sum(1 - p_miscast))
    FROM casts HAVING count(*) > 0
    UNION ALL
    SELECT 'dispels', count(*), count(*) FILTER (WHERE dispelled), sum(p_dispel),
           (count(*) FILTER (WHERE dispelled) - sum(p_dispel)) ** 2 / nullif(sum(p_dispel * (1 - p_dispel)), 0), 1,
           least(sum(p_dispel), sum(1 - p_dispel))
    FROM dispels HAVING count(*) > 0
), tested AS (
    SELECT *, stat_chi2_sf(statistic, df) AS p_value, min_expected >= 5 AND statistic IS NOT NULL AS in_family
    FROM checks
), ranked AS (
    SELECT *, row_number() OVER (ORDER BY p_value, test) AS rank_no, count(*) OVER () AS family_size FROM tested WHERE in_family
), adjusted AS (
    SELECT test, least(1.0, max((family_size - rank_no + 1) * p_value) OVER (ORDER BY rank_no ROWS UNBOUNDED PRECEDING))
           AS p_holm FROM ranked
)
SELECT t.test, t.n, t.observed, t.expected, t.statistic, t.df, t.min_expected, t.p_value, a.p_holm,
       stat_verdict(a.p_holm, CASE WHEN t.in_family THEN t.min_expected END) AS verdict
FROM tested t LEFT JOIN adjusted a USING (test) ORDER BY t.test;
