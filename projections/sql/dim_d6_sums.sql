-- The number of ways k six-sided dice (k = 1..8) show each total: the exact odds of casting and
-- dispelling rolls (fct_casts, fct_dispels). Built once; 6^8 combinations at most.
CREATE TABLE IF NOT EXISTS dim_d6_sums AS
WITH RECURSIVE rolls(k, total) AS (
    SELECT 1, f FROM range(1, 7) t(f)
    UNION ALL
    SELECT r.k + 1, r.total + f FROM rolls r, range(1, 7) t(f) WHERE r.k < 8
)
SELECT k, total, count(*)::BIGINT AS ways, (6::BIGINT ** k)::BIGINT AS outcomes FROM rolls GROUP BY k, total;
