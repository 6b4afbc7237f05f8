-- The replay state of game $game after event $seq (docs/contracts.md), in parts: first the game row
-- with $seq clamped to 0..last_seq (NULL: last_seq), then the rows (part, key, value) of its objects,
-- each state row holding for valid_from_seq <= $seq <= valid_to_seq (NULL: still holds).
SELECT g.game, g.system, cur.seq, g.last_seq, coalesce(e.turn, 0) AS turn, e.phase, g.board
FROM dim_games g
CROSS JOIN LATERAL (SELECT least(greatest(coalesce($seq, g.last_seq), 0), g.last_seq) AS seq) cur
LEFT JOIN fct_events e ON e.game = g.game AND e.seq = cur.seq
WHERE g.game = $game;

SELECT 'players' AS part, p.player AS key,
       json_object('name', p.name, 'faction', p.faction, 'score', s.score, 'crystals', s.crystals,
                   'faith', json_object('creation', s.faith_creation, 'destruction', s.faith_destruction,
                                        'life', s.faith_life, 'death', s.faith_death)) AS value
FROM dim_players p JOIN fct_player_states s ON s.game = p.game AND s.player = p.player
WHERE p.game = $game AND s.valid_from_seq <= $seq AND (s.valid_to_seq IS NULL OR s.valid_to_seq >= $seq)
ORDER BY p.seat;

SELECT 'models' AS part, s.model AS key,
       json_object('player', m.player, 'name', m.name, 'size', m.size, 'at', s.pos) AS value
FROM fct_model_states s
JOIN dim_models m ON m.game = s.game AND m.model = s.model AND m.placed_seq = s.placed_seq
WHERE s.game = $game AND NOT s.removed
  AND s.valid_from_seq <= $seq AND (s.valid_to_seq IS NULL OR s.valid_to_seq >= $seq)
ORDER BY s.model;

SELECT 'terrain' AS part, t.terrain AS key, json_object('kind', t.kind, 'hexes', t.hexes) AS value
FROM fct_terrain_states t
WHERE t.game = $game AND t.valid_from_seq <= $seq AND (t.valid_to_seq IS NULL OR t.valid_to_seq >= $seq)
ORDER BY t.terrain;

SELECT 'markers' AS part, k.marker AS key, json_object('kind', k.kind, 'at', k.pos, 'linked_to', k.linked_to) AS value
FROM fct_marker_states k
WHERE k.game = $game AND k.valid_from_seq <= $seq AND (k.valid_to_seq IS NULL OR k.valid_to_seq >= $seq)
ORDER BY k.marker;

SELECT 'vortices' AS part, v.vortex AS key,
       json_object('at', v.pos, 'facing', v.facing, 'ether', v.ether, 'allegiance', v.allegiance,
                   'removed', v.removed) AS value
FROM fct_vortex_states v
WHERE v.game = $game AND v.valid_from_seq <= $seq AND (v.valid_to_seq IS NULL OR v.valid_to_seq >= $seq)
ORDER BY v.vortex;
