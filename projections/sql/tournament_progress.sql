-- Each player's tournament points after each round of one tournament ($tournament: its name, in any case), from
-- the results the viewer sees ($held: projections/visibility.py).
SELECT round, name AS player,
       sum(coalesce(tournament_points, 0)) OVER (PARTITION BY name ORDER BY round) AS tournament_points
FROM results_seen($held)
WHERE slug = trim(regexp_replace(lower($tournament), '[^a-z0-9]+', '-', 'g'), '-') AND result IS NOT NULL
ORDER BY round, player;
