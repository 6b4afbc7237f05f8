-- Every tournament in the order it first appeared, for the broadcast's index (projections/spectators.py): its
-- name and slug (its rounds come from its games as a spectator sees them).
SELECT tournament, slug FROM dim_tournaments ORDER BY notification_id;
