-- Dumped as events: One row per event of every game (not the header), as recorded.
-- payload (the record line) is written once per event and read per game: stored uncompressed, which
-- halves the cost of checkpoints (its hashes do not compress anyway).
CREATE TABLE IF NOT EXISTS fct_events (
    game VARCHAR,  -- Game id (the header's `game`).
    seq BIGINT,  -- Seq of the event in its game (1, 2, …).
    type VARCHAR,  -- Event type.
    turn BIGINT,  -- Game turn (Claustrophobia: round of the game).
    phase VARCHAR,  -- Phase in progress.
    player VARCHAR,  -- Player id in the game (p1, p2).
    payload JSON USING COMPRESSION uncompressed,  -- The event's record line, with derived fields and hash (JSON).
    violations JSON,  -- Rule violations marked on a lenient import (JSON list of rule and message).
    notification_id BIGINT,  -- Position in the event store's log (orders everything written).
    author VARCHAR,  -- Name of the access key that wrote the event (empty in a store without keys).
    taken_back BOOLEAN DEFAULT false,  -- True when a take-back or a judge's rewind took the event back: it stays in the record, out of the game.
    recorded_at TIMESTAMPTZ,  -- When the event was stored (UTC).
    played_at TIMESTAMPTZ,  -- When the event happened at the table: the time its line gives (`at`), if any.
    odds JSON  -- Exact probability of each outcome the event decides by chance, from its rules pack under the game's rules (JSON, e.g. pass and miscast of a cast).
);

-- Every event of a game, with the turn and phase the game is in after it and the player who made it (from
-- the replay: projections/replay.py).
INSERT INTO fct_events
SELECT game, seq, type, turn, phase, player, payload, violations, notification_id, author, false,
       TRY_CAST(recorded_at AS TIMESTAMPTZ), TRY_CAST(played_at AS TIMESTAMPTZ), odds
FROM batch_events
WHERE game IS NOT NULL AND type <> 'GameCreated' AND topic LIKE 'rollcall:%';
