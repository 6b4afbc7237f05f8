-- Dumped as tournament_players: One row per player registered in a created tournament.
-- Columns:
--   slug: The tournament's key: its name in lower case, other characters runs of one hyphen.
--   tournament: Tournament name.
--   player: The player's name.
--   faction: The player's faction.
--   club: The player's club or team.
--   checked_in: Whether the player checked in.
--   dropped_after_round: The round after which the player dropped out (empty: still in).
--   registration: Place in the order of registration.
-- The players registered in created tournaments (`rollcall tournament register`), by name: faction, club (or
-- team), whether they checked in, the round after which they dropped out (NULL: still in) and their place in
-- the order of registration.
CREATE OR REPLACE VIEW dim_tournament_players AS
WITH events AS (
    SELECT name_slug(data ->> 'tournament') AS slug,
           data ->> 'tournament' AS tournament, data ->> 'player' AS player, topic, data, notification_id
    FROM fct_tournament_events
    WHERE topic IN ('rollcall-tournament:PlayerRegistered', 'rollcall-tournament:PlayerCheckedIn',
                    'rollcall-tournament:PlayerDropped')
), players AS (
    SELECT slug, any_value(tournament) AS tournament, player,
           any_value(data ->> 'faction') FILTER (WHERE topic = 'rollcall-tournament:PlayerRegistered') AS faction,
           any_value(data ->> 'club') FILTER (WHERE topic = 'rollcall-tournament:PlayerRegistered') AS club,
           bool_or(topic = 'rollcall-tournament:PlayerCheckedIn') AS checked_in,
           min((data ->> 'after_round')::BIGINT) FILTER (WHERE topic = 'rollcall-tournament:PlayerDropped')
               AS dropped_after_round,
           min(notification_id) FILTER (WHERE topic = 'rollcall-tournament:PlayerRegistered') AS registered_id
    FROM events GROUP BY slug, player
)
SELECT slug, tournament, player, faction, club, checked_in, dropped_after_round,
       row_number() OVER (PARTITION BY slug ORDER BY registered_id) AS registration
FROM players WHERE registered_id IS NOT NULL;
