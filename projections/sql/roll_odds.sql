-- The exact probability of each roll's outcome in game $game (see fct_roll_odds.sql), up to seq $upto (NULL:
-- all; a roll re-rolled after it is left out).
SELECT seq, p_outcome FROM roll_odds_of($game)
WHERE $upto IS NULL OR (seq <= $upto AND seq NOT IN (SELECT seq FROM rolls_changed_after($game, $upto)))
ORDER BY seq;
