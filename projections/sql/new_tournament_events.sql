-- The batch's tournament events (game tables never see them: new_events.sql joins dim_games).
-- when: rollcall-tournament:Created, rollcall-tournament:ByeAwarded, rollcall-tournament:PlayerRegistered, rollcall-tournament:PlayerCheckedIn, rollcall-tournament:PlayerDropped, rollcall-tournament:RoundPaired
INSERT INTO fct_tournament_events
SELECT notification_id, originator_id, topic, line
FROM raw_events WHERE topic LIKE 'rollcall-tournament:%';
