-- The number of ways a number of six-sided dice (dice = 1..8) show each total: the exact odds of casting and
-- dispelling rolls (fct_casts, fct_dispels). Built once; 6^8 combinations at most.
CREATE TABLE IF NOT EXISTS dim_d6_sums AS
WITH RECURSIVE rolls(dice, total) AS (
    SELECT 1, face FROM range(1, 7) t(face)
    UNION ALL
    SELECT r.dice + 1, r.total + face FROM rolls r, range(1, 7) t(face) WHERE r.dice < 8
)
SELECT dice, total, count(*)::BIGINT AS ways, (6::BIGINT ** dice)::BIGINT AS outcomes FROM rolls GROUP BY dice, total;
