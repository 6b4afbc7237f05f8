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
-- The players registered in created tournaments (`rollcall tournament register`: one by one, PlayerRegistered,
-- or a list at once, PlayerListRegistered), by name: faction, club (or team), whether they checked in (by
-- PlayerCheckedIn, or as a list said), the round after which they dropped out (NULL: still in) and their place in
-- the order of registration.
CREATE OR REPLACE VIEW dim_tournament_players AS
WITH checked AS (
    SELECT DISTINCT slug, player FROM fct_check_ins
), dropped AS (
    SELECT name_slug(data ->> 'tournament') AS slug, data ->> 'player' AS player,
           min((data ->> 'after_round')::BIGINT) AS dropped_after_round
    FROM fct_tournament_events WHERE topic = 'rollcall-tournament:PlayerDropped' GROUP BY 1, 2
)
SELECT r.slug, r.tournament, r.player, r.faction, r.club, r.checked_in OR c.player IS NOT NULL AS checked_in,
       d.dropped_after_round,
       row_number() OVER (PARTITION BY r.slug ORDER BY r.notification_id, r.place) AS registration
FROM fct_registrations r
LEFT JOIN checked c ON c.slug = r.slug AND c.player = r.player
LEFT JOIN dropped d ON d.slug = r.slug AND d.player = r.player;
