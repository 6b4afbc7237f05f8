INSERT INTO fct_events
SELECT e.game, e.seq, e.type, e.turn, e.phase, e.player, r.line, r.d.violations, e.notification_id, r.author
FROM new_events e JOIN raw_events r USING (notification_id);
