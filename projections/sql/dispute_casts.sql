-- The casting and dispel attempts among seqs $about of game $game with their exact odds of passing
-- (casts_of, dispels_of: fct_casts and fct_dispels of the one game), up to seq $upto (NULL: all).
SELECT 'cast' AS kind, seq, wizard, spell, dice, total, casting_value AS target, passed AS succeeded, p_pass AS p
FROM casts_of([$game]) WHERE list_contains($about, seq) AND ($upto IS NULL OR seq <= $upto)
UNION ALL
SELECT 'dispel', seq, wizard, spell, dice, total, casting_total, dispelled, p_dispel
FROM dispels_of([$game]) WHERE list_contains($about, seq) AND ($upto IS NULL OR seq <= $upto)
ORDER BY seq;
