-- The big luck swings of game $game up to seq $upto (NULL: all): throws with |z_score| >= 2, z_score =
-- (observed - expected) / sd.
SELECT seq, player, unit, observed, expected, luck, z_score FROM stat_throws
WHERE game = $game AND abs(z_score) >= 2 AND ($upto IS NULL OR seq <= $upto) ORDER BY seq;
