-- The faces thrown per die type in the scope ($games, $tournament) against their expected counts (for the chart).
WITH faces AS (
    SELECT die, spec, face, any_value(ord) AS ord, any_value(probability) AS probability, sum(thrown) AS observed
    FROM stat_scoped('stat_faces', $games, $tournament) f GROUP BY die, spec, face
)
SELECT die, spec, face, observed, sum(observed) OVER (PARTITION BY die, spec) * probability AS expected,
       observed / nullif(sum(observed) OVER (PARTITION BY die, spec), 0) AS share, probability AS expected_share
FROM faces ORDER BY die, spec, ord;
