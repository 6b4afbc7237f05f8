-- Rolls with their faces as finally shown (after re-rolls) and the last event that used them.
-- when: DiceRolled
INSERT INTO fct_rolls
SELECT e.game, e.seq, e.player, r.x.purpose, r.x.die, json_array_length(r.x.faces), r.x.faces,
       coalesce(r.x.source, 'physical'), NULL
FROM new_events e JOIN raw_events r USING (notification_id) WHERE e.type = 'DiceRolled';

-- when: DieRerolled
UPDATE fct_rolls r SET faces = f.faces
FROM (SELECT d.game, d.roll_seq,
             ('[' || string_agg(CASE WHEN d.die = 'd6' THEN d.final ELSE to_json(d.final)::VARCHAR END, ','
                                ORDER BY d.idx) || ']')::JSON AS faces
      FROM fct_dice d
      SEMI JOIN (SELECT e.game, r.x.roll AS roll
                 FROM new_events e JOIN raw_events r USING (notification_id) WHERE e.type = 'DieRerolled') x
           ON d.game = x.game AND d.roll_seq = x.roll
      GROUP BY ALL) f
WHERE r.game = f.game AND r.seq = f.roll_seq;

-- The last event that used each roll: a dodge (Tornscape), a vortex roll, a casting or dispel (The 9th Age).
-- when: ModelEjected, ModelDisplaced, VortexStabilised, VortexExplored, VortexMoved, CastingAttempted, DispelAttempted
UPDATE fct_rolls r SET used_by_seq = u.seq
FROM (SELECT e.game, CASE WHEN e.type IN ('ModelEjected', 'ModelDisplaced') THEN r.x.dodge ELSE r.x.roll END AS roll,
             max(e.seq) AS seq
      FROM new_events e JOIN raw_events r USING (notification_id)
      WHERE e.type IN ('ModelEjected', 'ModelDisplaced', 'VortexStabilised', 'VortexExplored', 'VortexMoved',
                       'CastingAttempted', 'DispelAttempted')
      GROUP BY ALL) u
WHERE r.game = u.game AND r.seq = u.roll;
