-- The batch's tournament events (game tables never see them).
INSERT INTO fct_tournament_events
SELECT notification_id, stream_id, topic, payload
FROM batch_events WHERE topic LIKE 'rollcall-tournament:%';
