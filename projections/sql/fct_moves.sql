-- when: ModelMoved
INSERT INTO fct_moves
SELECT game, seq, model, player, action, json_array_length(path), prev_pos, pos, path,
       free_attacks, must_eject, destroyed, markers_to_eject
FROM model_changes
WHERE type = 'ModelMoved';
