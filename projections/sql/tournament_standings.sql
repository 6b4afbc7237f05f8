-- The standings of one tournament ($tournament: its name, in any case), best first, with each registered
-- player's club and the round after which they dropped out, from the results the viewer sees ($held:
-- projections/visibility.py).
SELECT rank, player, s.faction, games, wins, draws, losses, byes, tournament_points, vp_for, vp_against, vp_diff,
       sos, r.club, r.dropped_after_round
FROM standings_seen($held) s LEFT JOIN dim_tournament_players r USING (slug, player)
WHERE slug = name_slug($tournament)
ORDER BY rank, player;
