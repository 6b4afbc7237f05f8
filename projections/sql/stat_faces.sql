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
