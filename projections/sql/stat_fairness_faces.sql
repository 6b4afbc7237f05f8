-- The faces of stat_faces summed per test of the fairness query (analytics_fairness.sql) for the scope of
-- every game: level ('overall', 'player': by the player's name, 'table'), who, die and spec, with each
-- face's thrown count and the number of stat_faces rows summed (n; a row goes when none is left). Kept up
-- to date by what each refresh takes out of stat_faces and puts in (stat_faces.sql), so that the
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

-- The season's faces per test: what was there, less the touched games' faces before, plus theirs now
-- (sums of integers: a refresh gives the figures of a rebuild).
CREATE OR REPLACE TEMP TABLE stat_fairness_next AS
WITH changes AS (
    SELECT * FROM stat_fairness_faces
    UNION ALL
    SELECT level, who, die, spec, face, ord, probability, -thrown, -n FROM stat_face_groups('stat_faces_before', NULL, NULL)
    UNION ALL
    SELECT * FROM stat_face_groups('stat_faces_after', NULL, NULL)
)
SELECT level, who, die, spec, face, any_value(ord), any_value(probability), sum(thrown)::BIGINT, sum(n)::BIGINT
FROM changes GROUP BY level, who, die, spec, face HAVING sum(n) > 0;

DELETE FROM stat_fairness_faces;

INSERT INTO stat_fairness_faces SELECT * FROM stat_fairness_next;
