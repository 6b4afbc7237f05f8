-- Every tournament, created or named by games, in the order it first appeared; ended_games and the rounds as the
-- viewer sees the games ($held: projections/visibility.py; a game that ended within its broadcast delay is still
-- on): rounds_played (rounds every game of which ended), last_round (the highest with games), and that round's
-- games and results.
WITH unseen AS (
    SELECT name_slug(g.tournament) AS slug, count(*) AS ended
    FROM dim_games g JOIN games_seen($held) s ON s.game = g.game
    WHERE g.ended AND NOT s.ended AND g.game NOT IN (SELECT game FROM dim_withdrawn_games)
    GROUP BY 1
), rounds AS (
    SELECT slug, count(*) FILTER (WHERE ended = games) AS rounds_played, max(round) AS last_round,
           arg_max(games, round) AS last_round_games, arg_max(ended, round) AS last_round_results
    FROM rounds_seen($held) GROUP BY slug
)
SELECT t.tournament, t.slug, t.system, t.created, t.planned_rounds, t.notes, t.games,
       t.ended_games - coalesce(u.ended, 0) AS ended_games, coalesce(r.rounds_played, 0) AS rounds_played,
       r.last_round, coalesce(r.last_round_games, 0) AS last_round_games,
       coalesce(r.last_round_results, 0) AS last_round_results, t.win_points, t.draw_points,
       t.loss_points, t.bye_points, t.broadcast_delay
FROM dim_tournaments t LEFT JOIN unseen u ON u.slug = t.slug LEFT JOIN rounds r ON r.slug = t.slug
ORDER BY t.notification_id;
