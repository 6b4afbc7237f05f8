-- Dumped as clock: One row per clock event of every game and per player, with that player's time after it.
-- Columns:
--   game: Game id (the header's `game`).
--   seq: Seq of the clock event in its game (1, 2, …).
--   type: The clock event: ClockStarted, ClockPassed, ClockPaused, ClockResumed, ClockAdjusted or FlagFell.
--   at: When the clock event happened (its `at`, UTC).
--   turn: Game turn in progress.
--   phase: Phase in progress.
--   by_player: The player the event names (who passed, whose time a judge adjusted, whose flag fell), if any.
--   player: The player whose time this row gives.
--   remaining_seconds: That player's time left right after the event, in seconds (below zero once a flag fell and play went on).
--   running: True when that player's time runs from the event on.
--   seconds: An adjustment's seconds (ClockAdjusted), else empty.
--   judge: The judge who paused, resumed or adjusted, if any.
--   reason: An adjustment's reason.
-- The clock's history, from the replay state's `clock` after each clock event (the domain's own arithmetic:
-- domain/clock.py); the Dispute page reads it around a moment ("slow play").
CREATE OR REPLACE VIEW fct_clock AS
WITH events AS (
    SELECT e.game, e.seq, e.type, e.played_at AS "at", e.turn, e.phase, e.payload ->> 'player' AS by_player,
           TRY_CAST(e.payload ->> 'seconds' AS BIGINT) AS seconds, e.payload ->> 'judge' AS judge,
           e.payload ->> 'reason' AS reason, s.value AS clock
    FROM fct_events e
    JOIN fct_states s ON s.game = e.game AND NOT s.ruled AND s.part = 'clock' AND s.key = ''
        AND s.valid_from_seq <= e.seq AND (s.valid_to_seq IS NULL OR s.valid_to_seq >= e.seq)
    WHERE e.type IN ('ClockStarted', 'ClockPassed', 'ClockPaused', 'ClockResumed', 'ClockAdjusted', 'FlagFell')
), players AS (
    SELECT *, unnest(json_keys(clock -> 'remaining')) AS player FROM events
)
SELECT game, seq, type, "at", turn, phase, by_player, player,
       CAST(clock -> 'remaining' ->> player AS BIGINT) / 1000.0 AS remaining_seconds,
       coalesce(clock ->> 'running' = player, false) AS running, seconds, judge, reason
FROM players;
