-- What spectators may see of each game of a delayed tournament (projections/visibility.py): its tournament's
-- broadcast delay, its last seq, and the last seq stored at least the delay before $now (0: none yet). A game of
-- no tournament, or of one without a delay (or only named by headers), is live: it is not listed.
SELECT g.game, t.broadcast_delay AS delay, g.last_seq,
       coalesce((SELECT max(e.seq) FROM fct_events e
                 WHERE e.game = g.game AND e.recorded_at <= $now::TIMESTAMPTZ - to_seconds(t.broadcast_delay)), 0)
           AS visible_seq
FROM dim_games g
JOIN dim_tournaments t ON t.slug = name_slug(g.tournament)
WHERE t.broadcast_delay > 0
ORDER BY g.game;
