-- The replay state of game $game after event $seq (docs/replay.md), in parts: first the game row with
-- $seq clamped to 0..last_seq (NULL: last_seq), then the state rows (part, key, value) holding at that
-- seq, as played or ($ruled) as ruled; `key` '' is a part that is one value, a NULL value an object gone.
SELECT g.game, g.system, cur.seq, g.last_seq,
       EXISTS (SELECT 1 FROM fct_states r WHERE r.game = g.game AND r.ruled) AS has_ruled
FROM dim_games g
CROSS JOIN LATERAL (SELECT least(greatest(coalesce($seq, g.last_seq), 0), g.last_seq) AS seq) cur
WHERE g.game = $game;

SELECT part, key, value
FROM fct_states
WHERE game = $game AND ruled = $ruled AND valid_from_seq <= $seq AND (valid_to_seq IS NULL OR valid_to_seq >= $seq)
ORDER BY part, key;
