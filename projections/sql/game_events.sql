-- The events of game $game in order; payload is the record line.
SELECT seq, type, turn, phase, player, payload, violations, author
FROM fct_events
WHERE game = $game
ORDER BY seq;
