-- Every tournament, created or named by games, in the order it first appeared; ended_games: as the viewer sees
-- them ($held: projections/visibility.py; a game that ended within its broadcast delay is still on).
WITH unseen AS (
    SELECT name_slug(g.tournament) AS slug, count(*) AS ended
    FROM dim_games g JOIN games_seen($held) s ON s.game = g.game
    WHERE g.ended AND NOT s.ended AND g.game NOT IN (SELECT game FROM dim_withdrawn_games)
    GROUP BY 1
)
SELECT t.tournament, t.slug, t.system, t.created, t.planned_rounds, t.notes, t.games,
       t.ended_games - coalesce(u.ended, 0) AS ended_games, t.rounds_played, t.win_points, t.draw_points,
       t.loss_points, t.bye_points, t.broadcast_delay
FROM dim_tournaments t LEFT JOIN unseen u ON u.slug = t.slug
ORDER BY t.notification_id;
