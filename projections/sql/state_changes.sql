-- The per-event changes of game $game's replay state, as played or ($ruled) as ruled: every state row by
-- the seq it starts at (domain.timeline's changes: a NULL value is an object gone), up to seq $upto (NULL: all).
SELECT valid_from_seq AS seq, part, key, value
FROM fct_states
WHERE game = $game AND ruled = $ruled AND ($upto IS NULL OR valid_from_seq <= $upto)
ORDER BY valid_from_seq, part, key;
