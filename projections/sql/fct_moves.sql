-- Dumped as moves: One row per Tornscape move (`ModelMoved`).
CREATE TABLE IF NOT EXISTS fct_moves (
    game VARCHAR,  -- Game id (the header's `game`).
    seq BIGINT,  -- Seq of the event in its game (1, 2, …).
    model VARCHAR,  -- Model id.
    player VARCHAR,  -- Player id in the game (p1, p2).
    action VARCHAR,  -- `step` or `run`.
    steps INTEGER,  -- Number of steps of the move.
    from_at JSON,  -- Position before the move (JSON).
    to_at JSON,  -- Position after the move (JSON).
    path JSON,  -- Path of the move: positions after each step (JSON).
    free_attacks JSON,  -- Enemy model ids that get a free attack (JSON list).
    must_eject JSON,  -- Model ids the move must eject, in order (JSON list).
    destroyed JSON,  -- Terrain ids the move destroyed (JSON list).
    markers_to_eject JSON  -- Markers the move must eject (JSON list).
);

-- Moves, where from (the model's state row that the move closed) and where to.
-- when: moves
INSERT INTO fct_moves
SELECT e.game, e.seq, e.move.model, e.player, e.move.action, json_array_length(e.move.path), s.value -> 'at',
       model_pos(json_extract(e.move.path, '$[#-1]')), e.move.path, e.move.free_attacks, e.move.must_eject, e.move.destroyed,
       e.move.markers_to_eject
FROM (SELECT game, seq, player,
             json_transform(payload, '{"model": "VARCHAR", "action": "VARCHAR", "path": "JSON", "free_attacks": "JSON",
                                       "must_eject": "JSON", "destroyed": "JSON", "markers_to_eject": "JSON"}') AS move
      FROM batch_events WHERE type IN (SELECT type FROM dim_facts WHERE fact = 'moves') AND game IS NOT NULL) e
LEFT JOIN fct_states s ON s.game = e.game AND NOT s.ruled AND s.part = 'models' AND s.key = e.move.model
                      AND s.valid_to_seq = e.seq - 1;
