-- The statistics read models (docs/architecture.md, Analytics): tables refreshed per game at the end of
-- each projector run (stat_refresh.sql), and the macros of the statistics queries (analytics_*.sql).
-- Everything here is plain DuckDB: readers of the published copy need no Python functions.

-- The notification id up to which the statistics tables are refreshed (one row).
CREATE TABLE IF NOT EXISTS stat_position (notification_id BIGINT);

-- One row per throw of dice: a roll's dice as they first showed (fct_dice.original), and each re-roll
-- (DieRerolled) as a throw of its own one die. unit 'successes' (faces success and crit count 1) for
-- dice with named faces, 'pips' (the face's number) for numbered dice such as the d6; expected and
-- variance are those of the dice in force (dim_dice). luck = observed - expected, z_score = luck / sd.
CREATE TABLE IF NOT EXISTS stat_throws (
    game VARCHAR, seq BIGINT, roll_seq BIGINT, turn BIGINT, player VARCHAR, purpose VARCHAR, die VARCHAR,
    kind VARCHAR, unit VARCHAR, n_dice INTEGER, observed DOUBLE, expected DOUBLE, variance DOUBLE, luck DOUBLE,
    z_score DOUBLE, label VARCHAR);  -- label: what a roll of purpose other was for

-- The throws of stat_throws summed per game, player and unit (name and faction: the player's), and per
-- game, die, purpose and unit: what the luck of a tournament or a season adds up, a row a game and player.
CREATE TABLE IF NOT EXISTS stat_luck (
    game VARCHAR, player VARCHAR, name VARCHAR, faction VARCHAR, unit VARCHAR, throws BIGINT, dice BIGINT,
    observed DOUBLE, expected DOUBLE, luck DOUBLE, variance DOUBLE);
CREATE TABLE IF NOT EXISTS stat_luck_dice (
    game VARCHAR, die VARCHAR, purpose VARCHAR, unit VARCHAR, throws BIGINT, dice BIGINT, observed DOUBLE,
    expected DOUBLE, luck DOUBLE, variance DOUBLE, label VARCHAR);

-- Faces thrown (the same throws as stat_throws) per game, player and die, with every face of the die in
-- force (thrown = 0 when it never showed) and its probability; spec names the die's faces and sides; name:
-- the player's, table_no: the game's table.
CREATE TABLE IF NOT EXISTS stat_faces (
    game VARCHAR, player VARCHAR, name VARCHAR, table_no BIGINT, die VARCHAR, spec VARCHAR, face VARCHAR,
    ord INTEGER, probability DOUBLE, thrown BIGINT);

-- The faces of stat_faces summed per test of the fairness query (analytics_fairness.sql) for the scope of
-- every game: level ('overall', 'player': by the player's name, 'table'), who, die and spec, with each
-- face's thrown count and the number of stat_faces rows summed (n; a row goes when none is left). Kept up
-- to date by what each refresh takes out of stat_faces and puts in (stat_refresh.sql), so that the
-- season's fairness reads a few thousand rows instead of every game's faces.
CREATE TABLE IF NOT EXISTS stat_fairness_faces (
    level VARCHAR, who VARCHAR, die VARCHAR, spec VARCHAR, face VARCHAR, ord INTEGER, probability DOUBLE,
    thrown BIGINT, n BIGINT);

-- Per game: the first player (who names the game's first event naming a player: the first activation in
-- Tornscape, the first casting roll in The 9th Age, the first initiative roll in Claustrophobia).
CREATE TABLE IF NOT EXISTS stat_games (game VARCHAR, first_player VARCHAR, first_seq BIGINT);

-- Per game: the vortices its setup places (0: none; what ether could be harvested from).
CREATE TABLE IF NOT EXISTS stat_setups (game VARCHAR, vortices INTEGER);

-- Per ended game, one row per player: the player's faction, the opponent's and the result (win, draw, loss).
CREATE TABLE IF NOT EXISTS stat_results (game VARCHAR, player VARCHAR, faction VARCHAR, opponent VARCHAR, result VARCHAR);

-- Per game and turn, from the events carrying `at`: from the turn's first time to the next turn's first
-- time (the last turn: to its own last time).
CREATE TABLE IF NOT EXISTS stat_turns (
    game VARCHAR, turn BIGINT, started_at TIMESTAMPTZ, ended_at TIMESTAMPTZ, seconds DOUBLE, timed_events BIGINT);

-- The games' outcomes with their exact odds, per game (copied from the analytic views so that a
-- tournament's figures read small tables): casting attempts with P(pass) and P(miscast) (from the rules pack,
-- under the rules in force), dispels with P(dispel), each face of each
-- stabilisation die with its probability and whether it showed, card draws of every deck (Flux too),
-- initiative dice, each vortex's drift and each player's ether harvested.
CREATE TABLE IF NOT EXISTS stat_casts (
    game VARCHAR, seq BIGINT, player VARCHAR, dice INTEGER, kind VARCHAR, passed BOOLEAN, p_pass DOUBLE,
    miscast BOOLEAN, p_miscast DOUBLE);
CREATE TABLE IF NOT EXISTS stat_dispels (game VARCHAR, seq BIGINT, player VARCHAR, dice INTEGER, dispelled BOOLEAN,
    p_dispel DOUBLE);
CREATE TABLE IF NOT EXISTS stat_stabilisations (game VARCHAR, seq BIGINT, player VARCHAR, face VARCHAR, ord INTEGER,
    probability DOUBLE, shown BOOLEAN);
CREATE TABLE IF NOT EXISTS stat_cards (game VARCHAR, seq BIGINT, deck VARCHAR, card VARCHAR);
CREATE TABLE IF NOT EXISTS stat_initiative (game VARCHAR, seq BIGINT, warrior VARCHAR, exhausted BOOLEAN,
    set_aside BOOLEAN);
-- moves: changes of position; hexes: the hex distances of the moves, summed; net_hexes: from the setup
-- position to the last one.
CREATE TABLE IF NOT EXISTS stat_vortices (
    game VARCHAR, vortex VARCHAR, moves BIGINT, hexes BIGINT, net_hexes BIGINT, ether_start BIGINT, ether_end BIGINT,
    allegiance VARCHAR, removed BOOLEAN);
CREATE TABLE IF NOT EXISTS stat_ether (game VARCHAR, player VARCHAR, explorations BIGINT, successes BIGINT,
    ether BIGINT);

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

