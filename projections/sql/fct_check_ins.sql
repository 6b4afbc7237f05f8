-- The players of created tournaments who checked in after registering: one by one (PlayerCheckedIn), or as a list
-- registered again said (PlayerListRegistered's `checked_in`).
CREATE TABLE IF NOT EXISTS fct_check_ins (
    slug VARCHAR,  -- The tournament's key: its name in lower case, other characters runs of one hyphen.
    player VARCHAR,  -- The player's name.
    notification_id BIGINT  -- Position in the event store's log (orders everything written).
);

INSERT INTO fct_check_ins
SELECT name_slug(payload ->> 'tournament'), payload ->> 'player', notification_id
FROM batch_events WHERE topic = 'rollcall-tournament:PlayerCheckedIn';

INSERT INTO fct_check_ins
SELECT name_slug(payload ->> 'tournament'), unnest(from_json(payload -> 'checked_in', '["VARCHAR"]')), notification_id
FROM batch_events WHERE topic = 'rollcall-tournament:PlayerListRegistered' AND (payload -> 'checked_in') IS NOT NULL;
