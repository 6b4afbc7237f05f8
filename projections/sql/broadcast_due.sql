-- When the next event a broadcast delay holds back comes due for spectators (projections/visibility.py): the
-- earliest, over the games of delayed tournaments, of an event stored after the last one shown ($held: each
-- game kept behind with its last seq shown) plus its tournament's delay. NULL: nothing is held.
WITH kept AS (
    SELECT unnest($held::STRUCT(game VARCHAR, seq BIGINT)[], recursive := true)
)
SELECT min(e.recorded_at + to_seconds(t.broadcast_delay)) AS due
FROM kept k
JOIN fct_events e ON e.game = k.game AND e.seq = k.seq + 1
JOIN dim_games g ON g.game = k.game
JOIN dim_tournaments t ON t.slug = name_slug(g.tournament);
