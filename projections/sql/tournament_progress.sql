-- Each player's tournament points after each round of one tournament ($tournament: its name, in any case), from
-- the results the viewer sees ($held: projections/visibility.py).
SELECT round, name AS player,
       sum(coalesce(tournament_points, 0)) OVER (PARTITION BY name ORDER BY round) AS tournament_points
FROM results_seen($held)
WHERE slug = name_slug($tournament) AND result IS NOT NULL
ORDER BY round, player;
