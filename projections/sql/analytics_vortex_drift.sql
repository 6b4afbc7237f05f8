-- How far each vortex of the scope ($games, $tournament) drifted (stat_vortices, from fct_vortex_states): its moves, the hexes
-- travelled, from its setup position to its last one, its ether at the start and the end, its last
-- allegiance and whether it was removed.
WITH scope AS (SELECT game FROM stat_scope($games, $tournament))
SELECT v.* FROM stat_vortices v SEMI JOIN scope s ON s.game = v.game ORDER BY v.game, v.vortex;
