-- Per game: the vortices its setup places (0: none; what ether could be harvested from).
CREATE TABLE IF NOT EXISTS stat_setups (
    game VARCHAR,
    vortices INTEGER
);

DELETE FROM stat_setups WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_setups
SELECT g.game, coalesce(json_array_length(json_extract(g.header, '$.setup.vortices')), 0)
FROM stat_rows_of('dim_games', $few) g SEMI JOIN stat_touched t ON t.game = g.game;
