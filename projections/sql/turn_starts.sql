-- (turn, seq) of each TurnStarted of game $game up to seq $upto (NULL: all).
SELECT turn, seq FROM fct_events WHERE game = $game AND type = 'TurnStarted' AND ($upto IS NULL OR seq <= $upto)
ORDER BY seq;
