-- Every tournament, created or named by games, in the order it first appeared.
SELECT tournament, slug, system, created, planned_rounds, notes, games, ended_games, rounds_played,
       win_points, draw_points, loss_points, bye_points, broadcast_delay
FROM dim_tournaments
ORDER BY notification_id;
