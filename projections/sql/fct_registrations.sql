-- The players registered in created tournaments, one row each, as registered: one by one (PlayerRegistered) or a
-- list at once (PlayerListRegistered, its players unnested here once, not at every read).
CREATE TABLE IF NOT EXISTS fct_registrations (
    slug VARCHAR,  -- The tournament's key: its name in lower case, other characters runs of one hyphen.
    tournament VARCHAR,  -- Tournament name.
    player VARCHAR,  -- The player's name.
    faction VARCHAR,  -- The player's faction.
    club VARCHAR,  -- The player's club or team.
    checked_in BOOLEAN,  -- Whether the list said the player checked in.
    notification_id BIGINT,  -- Position in the event store's log (orders everything written).
    place BIGINT  -- Place in the list that registered the player (0: registered alone).
);

INSERT INTO fct_registrations
SELECT name_slug(payload ->> 'tournament'), payload ->> 'tournament', payload ->> 'player', payload ->> 'faction',
       payload ->> 'club', false, notification_id, 0
FROM batch_events WHERE topic = 'rollcall-tournament:PlayerRegistered';

INSERT INTO fct_registrations
SELECT name_slug(tournament), tournament, entry.player, entry.faction, entry.club, coalesce(entry.checked_in, false),
       notification_id, place
FROM (SELECT payload ->> 'tournament' AS tournament, notification_id,
             unnest(from_json(payload -> 'players', '[{"player": "VARCHAR", "faction": "VARCHAR", "club": "VARCHAR",
                                                       "checked_in": "BOOLEAN"}]')) AS entry,
             unnest(range(json_array_length(payload -> 'players')::BIGINT)) AS place
      FROM batch_events WHERE topic = 'rollcall-tournament:PlayerListRegistered');
