-- The events of created tournaments (topics rollcall-tournament:*): `data` is the event's data, e.g.
-- {"name", "system", "slug", "rounds", "notes", "points"} for Created, {"tournament", "round", "player",
-- "faction"} for ByeAwarded. Filled per batch by new_tournament_events.sql.
CREATE TABLE IF NOT EXISTS fct_tournament_events (
    notification_id BIGINT, tournament_id VARCHAR, topic VARCHAR, data JSON);
