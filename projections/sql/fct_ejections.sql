-- ModelEjected (kind 'ejected') and ModelDisplaced (kind 'displaced'), where to as the event says.
-- when: ModelEjected, ModelDisplaced
INSERT INTO fct_ejections
SELECT game, seq, CASE type WHEN 'ModelEjected' THEN 'ejected' ELSE 'displaced' END, x.model, player, x.by,
       CASE type WHEN 'ModelEjected' THEN first_pos(x."to") ELSE model_pos(x."to") END, x.dodge, x.dodged,
       x.free_attacks
FROM (SELECT game, seq, type, player,
             json_transform(payload, '{"model": "VARCHAR", "by": "VARCHAR", "to": "JSON", "dodge": "BIGINT",
                                       "dodged": "BOOLEAN", "free_attacks": "JSON"}') AS x
      FROM batch_events WHERE type IN ('ModelEjected', 'ModelDisplaced') AND game IS NOT NULL);
