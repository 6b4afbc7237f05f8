-- (turn, seq) of each TurnStarted of game $game.
SELECT turn, seq FROM fct_events WHERE game = $game AND type = 'TurnStarted' ORDER BY seq;
