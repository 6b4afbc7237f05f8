-- Faces thrown (the same throws as stat_throws) per game, player and die, with every face of the die in
-- force (thrown = 0 when it never showed) and its probability; spec names the die's faces and sides; name:
-- the player's, table_no: the game's table.
CREATE TABLE IF NOT EXISTS stat_faces (
    game VARCHAR,
    player VARCHAR,
    name VARCHAR,
    table_no BIGINT,
    die VARCHAR,
    spec VARCHAR,
    face VARCHAR,
    ord INTEGER,
    probability DOUBLE,
    thrown BIGINT
);

-- The touched games' faces before the refresh, taken out of stat_fairness_faces below.
CREATE OR REPLACE TEMP TABLE stat_faces_before AS
SELECT * FROM stat_rows_of('stat_faces', $few) f SEMI JOIN stat_touched t ON t.game = f.game;

DELETE FROM stat_faces WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_faces
WITH specs AS (
    SELECT game, die, string_agg(face || ':' || sides, ' ' ORDER BY ord) AS spec FROM stat_touched_dice GROUP BY game, die
), counted AS (
    SELECT game, player, die, face, count(*) AS thrown FROM stat_touched_shown GROUP BY ALL
), pairs AS (
    SELECT DISTINCT game, player, die FROM stat_touched_shown
)
SELECT p.game, p.player, pl.name, g.table_no, p.die, s.spec, d.face, d.ord, d.sides / d.total, coalesce(c.thrown, 0)
FROM pairs p JOIN stat_touched_dice d ON d.game = p.game AND d.die = p.die
JOIN specs s ON s.game = p.game AND s.die = p.die
JOIN dim_games g ON g.game = p.game
LEFT JOIN dim_players pl ON pl.game = p.game AND pl.player = p.player
LEFT JOIN counted c ON c.game = p.game AND c.player = p.player AND c.die = p.die AND c.face = d.face;

CREATE OR REPLACE TEMP TABLE stat_faces_after AS
SELECT * FROM stat_rows_of('stat_faces', $few) f SEMI JOIN stat_touched t ON t.game = f.game;
