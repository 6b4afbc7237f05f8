-- Dumped as ejections: One row per Tornscape ejection or displacement of a model.
CREATE TABLE IF NOT EXISTS fct_ejections (
    game VARCHAR,  -- Game id (the header's `game`).
    seq BIGINT,  -- Seq of the event in its game (1, 2, …).
    kind VARCHAR,  -- `ejected` or `displaced`.
    model VARCHAR,  -- Model id.
    player VARCHAR,  -- Player id in the game (p1, p2).
    by_model VARCHAR,  -- The model that ejects or displaces.
    to_at JSON,  -- Position after the move (JSON).
    dodge_seq BIGINT,  -- Seq of the dodge roll, if any.
    dodged BOOLEAN,  -- Whether the dodge succeeded.
    free_attacks JSON  -- Enemy model ids that get a free attack (JSON list).
);

-- ModelEjected (kind 'ejected') and ModelDisplaced (kind 'displaced'), where to as the event says.
-- when: ejections
INSERT INTO fct_ejections
SELECT game, seq, kind, ejection.model, player, ejection.by,
       CASE kind WHEN 'ejected' THEN first_pos(ejection."to") ELSE model_pos(ejection."to") END, ejection.dodge, ejection.dodged,
       ejection.free_attacks
FROM (SELECT e.game, e.seq, f.kind, e.player,
             json_transform(payload, '{"model": "VARCHAR", "by": "VARCHAR", "to": "JSON", "dodge": "BIGINT",
                                       "dodged": "BOOLEAN", "free_attacks": "JSON"}') AS ejection
      FROM batch_events e JOIN dim_facts f ON f.type = e.type AND f.fact = 'ejections' WHERE e.game IS NOT NULL);
