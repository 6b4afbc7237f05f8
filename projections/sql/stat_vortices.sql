-- moves: changes of position; hexes: the hex distances of the moves, summed; net_hexes: from the setup
-- position to the last one.
CREATE TABLE IF NOT EXISTS stat_vortices (
    game VARCHAR,
    vortex VARCHAR,
    moves BIGINT,
    hexes BIGINT,
    net_hexes BIGINT,
    ether_start BIGINT,
    ether_end BIGINT,
    allegiance VARCHAR,
    removed BOOLEAN
);
