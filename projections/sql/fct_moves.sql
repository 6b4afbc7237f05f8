-- Moves, where from (the model's state row that the move closed) and where to.
-- when: ModelMoved
INSERT INTO fct_moves
SELECT e.game, e.seq, e.m.model, e.player, e.m.action, json_array_length(e.m.path), s.value -> 'at',
       model_pos(json_extract(e.m.path, '$[#-1]')), e.m.path, e.m.free_attacks, e.m.must_eject, e.m.destroyed,
       e.m.markers_to_eject
FROM (SELECT game, seq, player,
             json_transform(payload, '{"model": "VARCHAR", "action": "VARCHAR", "path": "JSON", "free_attacks": "JSON",
                                       "must_eject": "JSON", "destroyed": "JSON", "markers_to_eject": "JSON"}') AS m
      FROM batch_events WHERE type = 'ModelMoved' AND game IS NOT NULL) e
LEFT JOIN fct_states s ON s.game = e.game AND NOT s.ruled AND s.part = 'models' AND s.key = e.m.model
                      AND s.valid_to_seq = e.seq - 1;
