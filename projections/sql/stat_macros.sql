-- The macros of the statistics queries (analytics_*.sql) and of their refresh (stat_touched.sql and each stat_ table); the statistics
-- tables are each in their own file (stat_throws.sql, …). Everything here is plain DuckDB: readers of the
-- published copy need no Python functions.

-- The rows of table `tbl` of the games `few` (NULL: every game): what a refresh of a few games reads.
CREATE OR REPLACE MACRO stat_rows_of(tbl, few) AS TABLE
SELECT * FROM query_table(tbl) WHERE few::VARCHAR[] IS NULL OR list_contains(few::VARCHAR[], game);

-- True when the Analytics scope is every game (no games chosen, no tournament).
CREATE OR REPLACE MACRO stat_whole(chosen, of_tournament) AS
    coalesce(len(chosen::VARCHAR[]), 0) = 0 AND of_tournament::VARCHAR IS NULL;

-- The games of an Analytics scope: the games `chosen` if any, else those of tournament `of_tournament`, else
-- every game (the queries of analytics_*.sql take the scope as $games and $tournament).
CREATE OR REPLACE MACRO stat_scope(chosen, of_tournament) AS TABLE
SELECT game FROM dim_games
WHERE CASE WHEN len(chosen::VARCHAR[]) > 0 THEN list_contains(chosen::VARCHAR[], game)
           WHEN of_tournament::VARCHAR IS NOT NULL THEN tournament = of_tournament::VARCHAR
           ELSE true END;

-- The rows of table `tbl` (with a column game) in an Analytics scope (stat_scope): the whole table when the
-- scope is every game, read without a join (a join of every game costs more than the query; measured:
-- bench/season.py), else the rows of the scope's games.
CREATE OR REPLACE MACRO stat_scoped(tbl, chosen, of_tournament) AS TABLE
SELECT * FROM query_table(tbl) WHERE stat_whole(chosen, of_tournament)
UNION ALL
SELECT t.* FROM query_table(tbl) t SEMI JOIN stat_scope(chosen, of_tournament) s ON s.game = t.game
WHERE NOT stat_whole(chosen, of_tournament);

-- The faces of table `tbl` (stat_faces' columns) in an Analytics scope (stat_scoped) summed per test of the
-- fairness query: overall, per player (by name) and per table, per die type (die and spec) and face.
CREATE OR REPLACE MACRO stat_face_groups(tbl, chosen, of_tournament) AS TABLE
WITH faces AS (
    SELECT f.die, f.spec, f.face, f.ord, f.probability, f.thrown, coalesce(f.name, f.player) AS player, f.table_no
    FROM stat_scoped(tbl, chosen, of_tournament) f
)
SELECT CASE WHEN grouping(player) = 0 THEN 'player' WHEN grouping(table_no) = 0 THEN 'table' ELSE 'overall' END
           AS level,
       CASE WHEN grouping(player) = 0 THEN player WHEN grouping(table_no) = 0
            THEN 'table ' || coalesce(table_no::VARCHAR, '?') ELSE 'all' END AS who,
       die, spec, face, any_value(ord) AS ord, any_value(probability) AS probability, sum(thrown)::BIGINT AS thrown,
       count(*) AS n
FROM faces GROUP BY GROUPING SETS ((die, spec, face), (player, die, spec, face), (table_no, die, spec, face));

-- P(X >= x) for X chi-square with df degrees of freedom: the regularized upper incomplete gamma
-- Q(df/2, x/2), by its series below df/2 + 1 and its continued fraction above (Numerical Recipes' gammq).
-- Both converge within stat_chi2_terms(df) terms (below a + 1 each series term is at most (a + 1) / (a + 1 + n)
-- times the one before, so sqrt(80 (a + 1)) terms shrink it past 1e-17; a = df / 2).
CREATE OR REPLACE MACRO stat_chi2_terms(df) AS least(400, 20 + ceil(sqrt(80 * (df / 2 + 1))))::BIGINT;
CREATE OR REPLACE MACRO stat_chi2_sf(x, df) AS CASE
    WHEN x IS NULL OR df IS NULL OR df <= 0 THEN NULL
    WHEN x <= 0 THEN 1.0
    WHEN x / 2 < df / 2 + 1 THEN greatest(0.0, 1.0 - list_sum(list_transform(range(0, stat_chi2_terms(df)),
        lambda n: exp(-(x / 2) + (df / 2 + n) * ln(x / 2) - lgamma(df / 2 + n + 1)))))
    ELSE exp(-(x / 2) + (df / 2) * ln(x / 2) - lgamma(df / 2))
         / (x / 2 + 1 - df / 2 - list_reduce(range(stat_chi2_terms(df), 0, -1),
                lambda t, n: n * (n - df / 2) / (x / 2 + 2 * n + 1 - df / 2 - t), 0.0::DOUBLE))
END;

-- The Wilson score interval (95%) of a proportion of k successes in n trials.
CREATE OR REPLACE MACRO stat_wilson_low(k, n) AS CASE WHEN n > 0 THEN
    ((k + 1.959963984540054 ** 2 / 2) - 1.959963984540054 * sqrt(k * (n - k) / n + 1.959963984540054 ** 2 / 4))
    / (n + 1.959963984540054 ** 2) END;
CREATE OR REPLACE MACRO stat_wilson_high(k, n) AS CASE WHEN n > 0 THEN
    ((k + 1.959963984540054 ** 2 / 2) + 1.959963984540054 * sqrt(k * (n - k) / n + 1.959963984540054 ** 2 / 4))
    / (n + 1.959963984540054 ** 2) END;

-- Two-sided p-value of a count against its expectation and variance (normal approximation).
CREATE OR REPLACE MACRO stat_z_p(observed, expected, variance) AS
    CASE WHEN variance > 0 THEN stat_chi2_sf((observed - expected) ** 2 / variance, 1) END;

-- The plain verdict of a test after multiple-testing control (Holm, 5%); too few throws when an expected
-- count is under 5 (the chi-square approximation would not hold).
CREATE OR REPLACE MACRO stat_verdict(p_adjusted, min_expected) AS CASE
    WHEN min_expected IS NULL OR min_expected < 5 OR p_adjusted IS NULL THEN 'too few to tell'
    WHEN p_adjusted < 0.05 THEN 'worth a look'
    ELSE 'no evidence of bias' END;

