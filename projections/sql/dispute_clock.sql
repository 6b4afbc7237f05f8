-- The game clock around a disputed moment ("slow play"): the clock events of game $game from the $around
-- clock events before its seq $first to the $around after its seq $final (up to seq $upto, what the viewer may
-- see), one row per clock event and player with that player's time after it (fct_clock).
WITH events AS (
    SELECT DISTINCT seq FROM fct_clock WHERE game = $game AND ($upto IS NULL OR seq <= $upto)
), placed AS (
    SELECT seq, row_number() OVER (ORDER BY seq) AS n FROM events
), bounds AS (
    SELECT coalesce(max(n) FILTER (WHERE seq < $first), 0) - $around + 1 AS low,
           coalesce(min(n) FILTER (WHERE seq > $final), (SELECT count(*) FROM placed) + 1) + $around - 1 AS high
    FROM placed
)
SELECT c.* FROM fct_clock c JOIN placed p ON p.seq = c.seq, bounds b
WHERE c.game = $game AND p.n BETWEEN b.low AND b.high
ORDER BY c.seq, c.player;
