-- Moves, where from (the model's state row that the move closed) and where to.
-- when: ModelMoved
INSERT INTO fct_moves
SELECT e.game, e.seq, e.move.model, e.player, e.move.action, json_array_length(e.move.path), s.value -> 'at',
       model_pos(json_extract(e.move.path, '$[#-1]')), e.move.path, e.move.free_attacks, e.move.must_eject, e.move.destroyed,
       e.move.markers_to_eject
FROM (SELECT game, seq, player,
             json_transform(payload, '{"model": "VARCHAR", "action": "VARCHAR", "path": "JSON", "free_attacks": "JSON",
                                       "must_eject": "JSON", "destroyed": "JSON", "markers_to_eject": "JSON"}') AS move
      FROM batch_events WHERE type = 'ModelMoved' AND game IS NOT NULL) e
LEFT JOIN fct_states s ON s.game = e.game AND NOT s.ruled AND s.part = 'models' AND s.key = e.move.model
                      AND s.valid_to_seq = e.seq - 1;
