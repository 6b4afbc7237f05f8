-- The standings of one tournament ($tournament: its name, in any case), best first.
SELECT rank, player, faction, games, wins, draws, losses, byes, tournament_points, vp_for, vp_against, vp_diff,
       sos
FROM fct_standings
WHERE slug = trim(regexp_replace(lower($tournament), '[^a-z0-9]+', '-', 'g'), '-')
ORDER BY rank, player;
