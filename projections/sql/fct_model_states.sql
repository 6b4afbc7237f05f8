-- Close the open state of each changed model (its seed) and add the batch's states.
-- when: GameCreated, ModelPlaced, ModelMoved, ModelEjected, ModelDisplaced, ModelRemoved
MERGE INTO fct_model_states s
USING model_changes c
ON c.is_seed AND s.game = c.game AND s.model = c.model AND s.valid_from_seq = c.seq AND s.valid_to_seq IS NULL
WHEN MATCHED THEN UPDATE SET valid_to_seq = c.valid_to_seq
WHEN NOT MATCHED AND NOT c.is_seed THEN
    INSERT (game, model, valid_from_seq, valid_to_seq, pos, removed, placed_seq)
    VALUES (c.game, c.model, c.seq, c.valid_to_seq, c.pos, c.removed, c.placed_seq);
