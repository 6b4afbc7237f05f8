-- The events of created tournaments (topics rollcall-tournament:*): `data` is the event's data, e.g.
-- {"name", "system", "slug", "rounds", "notes", "points"} for Created, {"tournament", "round", "player",
-- "faction"} for ByeAwarded, {"tournament", "player", "faction", "club"} for PlayerRegistered, {"tournament",
-- "players": [{"player", "faction", "club", "checked_in"}, …], "checked_in": [player, …]} for PlayerListRegistered,
-- {"tournament", "player"} for PlayerCheckedIn, {"tournament", "player", "after_round"} for PlayerDropped, {"tournament",
-- "round", "pairing", "tables": [{"table", "game", "players": [{"name", "faction"}, …]}], "bye", "seed",
-- "scenario", "withdrawn"} for RoundPaired, {"seconds"} for BroadcastDelaySet. Filled per batch by new_tournament_events.sql.
CREATE TABLE IF NOT EXISTS fct_tournament_events (
    notification_id BIGINT, tournament_id VARCHAR, topic VARCHAR, data JSON);
