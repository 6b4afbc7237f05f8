-- Read models of the projector (DDL). Positions are JSON [q, r]; a model's `pos` is a list of them
-- (its `at` in the replay JSON); a marker's `pos` is one position.
-- valid_from_seq / valid_to_seq: the state holds for seqs from..to inclusive; valid_to_seq NULL = still holds.

CREATE TABLE IF NOT EXISTS dim_games (
    game VARCHAR, stream_id VARCHAR, system VARCHAR, tournament VARCHAR, round BIGINT, table_no BIGINT,
    started VARCHAR, players JSON, header JSON, board JSON,
    events BIGINT, last_seq BIGINT, turn BIGINT, phase VARCHAR, violations BIGINT,
    ended BOOLEAN, winner VARCHAR, score JSON, notification_id BIGINT);

CREATE TABLE IF NOT EXISTS dim_players (game VARCHAR, player VARCHAR, seat INTEGER, name VARCHAR, faction VARCHAR);

CREATE TABLE IF NOT EXISTS dim_models (
    game VARCHAR, model VARCHAR, player VARCHAR, name VARCHAR, size VARCHAR,
    step INTEGER, run INTEGER, agility INTEGER, explore INTEGER, placed_seq BIGINT);

-- payload (the record line) is written once per event and read per game: stored uncompressed, which
-- halves the cost of checkpoints (its hashes do not compress anyway).
CREATE TABLE IF NOT EXISTS fct_events (
    game VARCHAR, seq BIGINT, type VARCHAR, turn BIGINT, phase VARCHAR, player VARCHAR,
    payload JSON USING COMPRESSION uncompressed, violations JSON, notification_id BIGINT,
    author VARCHAR);  -- who wrote it: the name of the key presented (NULL in a store without keys)
ALTER TABLE fct_events ADD COLUMN IF NOT EXISTS author VARCHAR;  -- read models projected before authors

CREATE TABLE IF NOT EXISTS fct_rolls (
    game VARCHAR, seq BIGINT, player VARCHAR, purpose VARCHAR, die VARCHAR, n_dice INTEGER,
    faces JSON, source VARCHAR, used_by_seq BIGINT);

CREATE TABLE IF NOT EXISTS fct_dice (
    game VARCHAR, roll_seq BIGINT, idx INTEGER, original VARCHAR, final VARCHAR, rerolled BOOLEAN,
    die VARCHAR, purpose VARCHAR, player VARCHAR, source VARCHAR);

CREATE TABLE IF NOT EXISTS fct_moves (
    game VARCHAR, seq BIGINT, model VARCHAR, player VARCHAR, action VARCHAR, steps INTEGER,
    from_at JSON, to_at JSON, path JSON, free_attacks JSON, must_eject JSON, destroyed JSON,
    markers_to_eject JSON);

CREATE TABLE IF NOT EXISTS fct_ejections (
    game VARCHAR, seq BIGINT, kind VARCHAR, model VARCHAR, player VARCHAR, by_model VARCHAR,
    to_at JSON, dodge_seq BIGINT, dodged BOOLEAN, free_attacks JSON);

-- placed_seq: the placement the state belongs to (dim_models.placed_seq: 0 for the setup).
CREATE TABLE IF NOT EXISTS fct_model_states (
    game VARCHAR, model VARCHAR, valid_from_seq BIGINT, valid_to_seq BIGINT, pos JSON, removed BOOLEAN,
    placed_seq BIGINT);

CREATE TABLE IF NOT EXISTS fct_terrain_states (
    game VARCHAR, terrain VARCHAR, kind VARCHAR, hexes JSON, valid_from_seq BIGINT, valid_to_seq BIGINT);

CREATE TABLE IF NOT EXISTS fct_marker_states (
    game VARCHAR, marker VARCHAR, kind VARCHAR, pos JSON, linked_to VARCHAR, valid_from_seq BIGINT,
    valid_to_seq BIGINT);

CREATE TABLE IF NOT EXISTS fct_vortex_states (
    game VARCHAR, vortex VARCHAR, pos JSON, facing INTEGER, ether BIGINT, allegiance VARCHAR, removed BOOLEAN,
    valid_from_seq BIGINT, valid_to_seq BIGINT);

CREATE TABLE IF NOT EXISTS fct_player_states (
    game VARCHAR, player VARCHAR, score BIGINT, crystals BIGINT, faith_creation BIGINT, faith_destruction BIGINT,
    faith_life BIGINT, faith_death BIGINT, valid_from_seq BIGINT, valid_to_seq BIGINT);
