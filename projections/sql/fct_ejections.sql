-- ModelEjected (kind 'ejected') and ModelDisplaced (kind 'displaced'), where to as the event says.
-- when: ModelEjected, ModelDisplaced
INSERT INTO fct_ejections
SELECT game, seq, CASE type WHEN 'ModelEjected' THEN 'ejected' ELSE 'displaced' END, ejection.model, player, ejection.by,
       CASE type WHEN 'ModelEjected' THEN first_pos(ejection."to") ELSE model_pos(ejection."to") END, ejection.dodge, ejection.dodged,
       ejection.free_attacks
FROM (SELECT game, seq, type, player,
             json_transform(payload, '{"model": "VARCHAR", "by": "VARCHAR", "to": "JSON", "dodge": "BIGINT",
                                       "dodged": "BOOLEAN", "free_attacks": "JSON"}') AS ejection
      FROM batch_events WHERE type IN ('ModelEjected', 'ModelDisplaced') AND game IS NOT NULL);
