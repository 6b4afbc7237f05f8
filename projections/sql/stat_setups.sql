-- Per game: the vortices its setup places (0: none; what ether could be harvested from).
CREATE TABLE IF NOT EXISTS stat_setups (
    game VARCHAR,
    vortices INTEGER
);
