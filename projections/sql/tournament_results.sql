-- The results of one tournament ($tournament: its name, in any case), of round $round or of every
-- round (NULL): one row per game (the seat p1 first) and per bye, as the viewer sees them ($held:
-- projections/visibility.py).
SELECT round, table_no, game, name AS player, faction, opponent, opponent_faction, score, opponent_score, result,
       ended_at_time, tournament_points
FROM results_seen($held)
WHERE slug = name_slug($tournament)
  AND ($round IS NULL OR round = $round)
  AND (game IS NULL OR seat = 1)
ORDER BY round, table_no NULLS LAST, player;
