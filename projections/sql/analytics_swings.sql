-- The big luck swings of game $game: throws with |z| >= 2, z = (observed - expected) / sd.
SELECT seq, player, unit, observed, expected, luck, z FROM stat_throws
WHERE game = $game AND abs(z) >= 2 ORDER BY seq;
