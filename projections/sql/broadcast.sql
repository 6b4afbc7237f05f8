-- What spectators may see of each game: its tournament's broadcast delay (0: live; a game of no tournament,
-- or of one only named by headers, is live) and the last seq stored before $now less that delay.
WITH delays AS (
    SELECT g.game, coalesce(t.broadcast_delay, 0) AS delay
    FROM dim_games g
    LEFT JOIN dim_tournaments t ON t.slug = trim(regexp_replace(lower(g.tournament), '[^a-z0-9]+', '-', 'g'), '-')
    WHERE $game IS NULL OR g.game = $game
)
SELECT d.game, d.delay,
       CASE WHEN d.delay = 0 THEN (SELECT coalesce(max(e.seq), 0) FROM fct_events e WHERE e.game = d.game)
            ELSE (SELECT coalesce(max(e.seq), 0) FROM fct_events e
                  WHERE e.game = d.game AND e.recorded_at <= $now::TIMESTAMPTZ - to_seconds(d.delay)) END AS visible_seq
FROM delays d;
