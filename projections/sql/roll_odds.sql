-- The exact probability of each roll's outcome in game $game (see fct_roll_odds.sql).
SELECT seq, p_outcome FROM roll_odds_of($game) ORDER BY seq;
