-- Dumped as games: One row per game: its header, progress and result.
CREATE TABLE IF NOT EXISTS dim_games (
    game VARCHAR,  -- Game id (the header's `game`).
    stream_id VARCHAR,  -- The game's aggregate id in the event store.
    system VARCHAR,  -- Game system: the main alias of its rules pack (tornscape, t9a, claustrophobia).
    tournament VARCHAR,  -- Tournament name.
    round BIGINT,  -- Tournament round.
    table_no BIGINT,  -- Table number.
    started VARCHAR,  -- When the game started (the header's `started`).
    players JSON,  -- The header's players (JSON).
    header JSON,  -- The game's header line (JSON).
    board JSON,  -- The Tornscape board (JSON: width, height).
    events BIGINT,  -- Number of events after the header.
    last_seq BIGINT,  -- Seq of the game's last event.
    turn BIGINT,  -- Turn in progress at the last event.
    phase VARCHAR,  -- Phase in progress.
    violations BIGINT,  -- Number of events marked with rule violations.
    ended BOOLEAN,  -- Whether the game has ended (`GameEnded`).
    winner VARCHAR,  -- The winner's player id (empty: a draw, or not ended).
    score JSON,  -- Victory points by player id (JSON, from `GameEnded`).
    ended_at_time BOOLEAN,  -- Whether the game ended at time (`GameEnded` reason `time`: time was called).
    notification_id BIGINT  -- Position in the event store's log (orders everything written).
);

-- New games from their headers (batch_headers.sql); counts, turn, phase and result are kept up by
-- dim_games_stats.sql.
-- when: GameCreated
INSERT INTO dim_games
SELECT game, stream_id, h.system, h.tournament, TRY_CAST(h.round AS BIGINT), TRY_CAST(h."table" AS BIGINT), h.started,
       to_json(h.players), payload, h.setup.board, 0, 0, 0, NULL, coalesce(json_array_length(h.violations), 0),
       false, NULL, NULL, false, notification_id
FROM batch_headers;
