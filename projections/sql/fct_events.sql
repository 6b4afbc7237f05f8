-- Every event of a game, with the turn and phase the game is in after it and the player who made it (from
-- the replay: projections/replay.py).
INSERT INTO fct_events
SELECT game, seq, type, turn, phase, player, payload, violations, notification_id, author, false,
       TRY_CAST(recorded_at AS TIMESTAMPTZ), TRY_CAST(played_at AS TIMESTAMPTZ), odds
FROM batch_events
WHERE game IS NOT NULL AND type <> 'GameCreated' AND topic LIKE 'rollcall:%';
