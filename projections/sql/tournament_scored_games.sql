-- What the format of one tournament ($tournament: its name, in any case) scores, as the viewer sees it ($held:
-- projections/visibility.py): each game (seen from seat 1; result NULL while it is on: round, table_no, game, player, opponent, score,
-- opponent_score, winner: the winner's name or NULL for a draw, secondary: the name of the holder of the
-- secondary objective or NULL) and each bye (game NULL, player; the rest NULL), with the players' factions.
SELECT r.round, r.table_no, r.game, r.name AS player, r.faction, r.opponent, r.opponent_faction, r.score,
       r.opponent_score, r.result,
       CASE r.result WHEN 'W' THEN r.name WHEN 'L' THEN r.opponent END AS winner,
       CASE WHEN e.secondary IS NULL THEN NULL WHEN e.secondary = r.player THEN r.name ELSE r.opponent END AS secondary
FROM results_seen($held) r
LEFT JOIN (SELECT game, payload ->> 'secondary' AS secondary FROM fct_events WHERE type = 'GameEnded') e
       ON e.game = r.game AND r.result IN ('W', 'D', 'L')
WHERE r.slug = name_slug($tournament) AND (r.game IS NULL OR r.seat = 1)
ORDER BY r.round, r.table_no NULLS LAST, r.name;
