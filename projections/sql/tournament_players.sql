-- The registered players of one tournament ($tournament: its name, in any case), in the order they registered.
SELECT registration, player, faction, club, checked_in, dropped_after_round
FROM dim_tournament_players
WHERE slug = name_slug($tournament)
ORDER BY registration;
