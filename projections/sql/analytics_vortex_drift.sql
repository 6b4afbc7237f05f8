-- How far each vortex of the scope ($games, $tournament) drifted (stat_vortices, from fct_vortex_states): its moves, the hexes
-- travelled, from its setup position to its last one, its ether at the start and the end, its last
-- allegiance and whether it was removed.
SELECT v.* FROM stat_scoped('stat_vortices', $games, $tournament) v ORDER BY v.game, v.vortex;
