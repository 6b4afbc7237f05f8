-- ModelEjected (kind 'ejected') and ModelDisplaced (kind 'displaced'); to_at as the domain applies it.
-- when: ModelEjected, ModelDisplaced
INSERT INTO fct_ejections
SELECT e.game, e.seq, CASE e.type WHEN 'ModelEjected' THEN 'ejected' ELSE 'displaced' END, e.model, e.player,
       r.x.by, r.pos, r.x.dodge, r.x.dodged, r.x.free_attacks
FROM new_events e JOIN raw_events r USING (notification_id)
WHERE e.type IN ('ModelEjected', 'ModelDisplaced');
