-- The faces of stat_faces summed per test of the fairness query (analytics_fairness.sql) for the scope of
-- every game: level ('overall', 'player': by the player's name, 'table'), who, die and spec, with each
-- face's thrown count and the number of stat_faces rows summed (n; a row goes when none is left). Kept up
-- to date by what each refresh takes out of stat_faces and puts in (stat_refresh.sql), so that the
-- season's fairness reads a few thousand rows instead of every game's faces.
CREATE TABLE IF NOT EXISTS stat_fairness_faces (
    level VARCHAR,
    who VARCHAR,
    die VARCHAR,
    spec VARCHAR,
    face VARCHAR,
    ord INTEGER,
    probability DOUBLE,
    thrown BIGINT,
    n BIGINT
);
