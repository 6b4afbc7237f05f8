-- Goodness of fit of the faces thrown (stat_faces: first faces and re-rolls) against the dice in force,
-- per die type (die and faces), overall, per player and per table, in the scope ($games, $tournament). Pearson's chi-square
-- with faces - 1 degrees of freedom; the family of every test with an expected count >= 5 per face is
-- adjusted by Holm (p_holm, family-wise) and Benjamini-Hochberg (q_bh, false discovery rate); the
-- verdict reads p_holm at 5%.
WITH grouped AS (  -- the whole season's sums are kept per test (stat_fairness_faces); a scope's are summed here
    SELECT level, who, die, spec, face, ord, probability, thrown FROM stat_fairness_faces
    WHERE stat_whole($games, $tournament)
    UNION ALL
    SELECT level, who, die, spec, face, ord, probability, thrown FROM stat_face_groups('stat_faces', $games, $tournament)
    WHERE NOT stat_whole($games, $tournament)
), expected AS (
    SELECT *, sum(thrown) OVER (PARTITION BY level, who, die, spec) * probability AS expected_count FROM grouped
), tests AS (
    SELECT level, who, die, spec, sum(thrown) AS throws,
           sum((thrown - expected_count) ** 2 / expected_count) FILTER (WHERE probability > 0) AS chi2,
           (count(*) FILTER (WHERE probability > 0) - 1)::INTEGER AS df,
           min(expected_count) FILTER (WHERE probability > 0) AS min_expected,
           string_agg(face || ' ' || thrown || ' (' || round(expected_count, 1) || ')', ', ' ORDER BY ord) AS faces
    FROM expected GROUP BY level, who, die, spec
), tested AS MATERIALIZED (  -- read twice: by the ranking and by the result
    SELECT *, stat_chi2_sf(chi2, df) AS p_value, min_expected >= 5 AND df > 0 AS in_family FROM tests
), ranked AS (
    SELECT *, row_number() OVER (ORDER BY p_value, level, who, die, spec) AS rank_no, count(*) OVER () AS family_size
    FROM tested WHERE in_family
), adjusted AS (
    SELECT level, who, die, spec,
           least(1.0, max((family_size - rank_no + 1) * p_value)
                                  OVER (ORDER BY rank_no ROWS UNBOUNDED PRECEDING)) AS p_holm,
           least(1.0, min(family_size / rank_no * p_value)
                      OVER (ORDER BY rank_no ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING)) AS q_bh
    FROM ranked
)
SELECT t.level, t.who, t.die, t.spec, t.throws, t.faces, t.chi2, t.df, t.min_expected, t.p_value, a.p_holm, a.q_bh,
       stat_verdict(a.p_holm, CASE WHEN t.in_family THEN t.min_expected END) AS verdict
FROM tested t LEFT JOIN adjusted a USING (level, who, die, spec)
ORDER BY CASE t.level WHEN 'overall' THEN 0 WHEN 'player' THEN 1 ELSE 2 END, t.die, t.spec, t.who;
