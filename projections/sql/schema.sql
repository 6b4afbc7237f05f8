-- Read models of the projector (DDL). Positions are JSON [q, r]; a model's position is a list of them (its
-- `at` in the replay JSON). valid_from_seq / valid_to_seq: a state row holds for seqs from..to inclusive;
-- valid_to_seq NULL: it still holds.

CREATE TABLE IF NOT EXISTS dim_games (
    game VARCHAR, stream_id VARCHAR, system VARCHAR, tournament VARCHAR, round BIGINT, table_no BIGINT,
    started VARCHAR, players JSON, header JSON, board JSON,
    events BIGINT, last_seq BIGINT, turn BIGINT, phase VARCHAR, violations BIGINT,
    ended BOOLEAN, winner VARCHAR, score JSON, notification_id BIGINT);

CREATE TABLE IF NOT EXISTS dim_players (game VARCHAR, player VARCHAR, seat INTEGER, name VARCHAR, faction VARCHAR);

CREATE TABLE IF NOT EXISTS dim_models (
    game VARCHAR, model VARCHAR, player VARCHAR, name VARCHAR, size VARCHAR,
    step INTEGER, run INTEGER, agility INTEGER, explore INTEGER, placed_seq BIGINT);

-- The dice in force in each game (dim_dice.sql).
CREATE TABLE IF NOT EXISTS dim_dice (game VARCHAR, die VARCHAR, face VARCHAR, sides INTEGER, total BIGINT, ord BIGINT);

-- The spells and wizards a game's setup lists (a system without them has none): what casts and dispels join.
CREATE TABLE IF NOT EXISTS dim_spells (
    game VARCHAR, spell VARCHAR, kind VARCHAR, path VARCHAR, casting_value INTEGER, boosted_value INTEGER);

CREATE TABLE IF NOT EXISTS dim_wizards (game VARCHAR, wizard VARCHAR, player VARCHAR);

-- payload (the record line) is written once per event and read per game: stored uncompressed, which
-- halves the cost of checkpoints (its hashes do not compress anyway).
CREATE TABLE IF NOT EXISTS fct_events (
    game VARCHAR, seq BIGINT, type VARCHAR, turn BIGINT, phase VARCHAR, player VARCHAR,
    payload JSON USING COMPRESSION uncompressed, violations JSON, notification_id BIGINT,
    author VARCHAR,  -- who wrote it: the name of the key presented (NULL in a store without keys)
    taken_back BOOLEAN DEFAULT false,  -- a take-back or a rewind took it back (fct_taken_back.sql)
    recorded_at TIMESTAMPTZ,  -- when it was stored (a broadcast delay counts from it)
    played_at TIMESTAMPTZ,  -- when it happened at the table: its line's `at`, if any (turn times count from it)
    odds JSON);  -- the exact probability of each outcome it decides by chance, from its rules pack (e.g. pass)

CREATE TABLE IF NOT EXISTS fct_rolls (
    game VARCHAR, seq BIGINT, player VARCHAR, purpose VARCHAR, die VARCHAR, n_dice INTEGER,
    faces JSON, source VARCHAR, used_by_seq BIGINT,  -- faces as finally shown (after re-rolls)
    label VARCHAR, needs INTEGER,  -- a roll of purpose other: what for, and the face a die must reach (if any)
    successes INTEGER, p_outcome DOUBLE);  -- its successes, and the exact chance of its outcome (the rules pack's)

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

-- The replay state of every game, object by object (docs/replay.md): `part` is a map of objects
-- (players, models, terrain, markers, vortices, wizards, spells, warriors) with `key` the object's id, or a
-- single value (turn, phase, board, activation, pending, magic, human, initiative) with `key` ''. `value` is
-- the object as the replay JSON shows it, NULL where it is gone. `ruled`: the as-ruled game (only games a
-- ruling voided events of have such rows). Written by the projector from the rules packs' own apply.
CREATE TABLE IF NOT EXISTS fct_states (
    game VARCHAR, ruled BOOLEAN, part VARCHAR, key VARCHAR, valid_from_seq BIGINT, valid_to_seq BIGINT,
    value JSON);

-- Games the replay could not follow (a stored game its rules pack cannot apply): from which seq, and why.
CREATE TABLE IF NOT EXISTS fct_projection_failures (game VARCHAR, stream_id VARCHAR, seq BIGINT, error VARCHAR);

