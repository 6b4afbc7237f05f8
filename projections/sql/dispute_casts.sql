-- The casting and dispel attempts among seqs $about of game $game with their exact odds of passing
-- (fct_casts, fct_dispels).
SELECT 'cast' AS kind, seq, wizard, spell, dice, total, casting_value AS target, passed AS succeeded, p_pass AS p
FROM fct_casts WHERE game = $game AND list_contains($about, seq)
UNION ALL
SELECT 'dispel', seq, wizard, spell, dice, total, casting_total, dispelled, p_dispel
FROM fct_dispels WHERE game = $game AND list_contains($about, seq)
ORDER BY seq;
