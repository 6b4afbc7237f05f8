-- The events of game $game in order, up to seq $upto (NULL: all; projections/visibility.py); payload is the
-- record line.
SELECT seq, type, turn, phase, player, payload, violations, author
FROM fct_events
WHERE game = $game AND ($upto IS NULL OR seq <= $upto)
ORDER BY seq;
