-- New games from their headers (batch_headers.sql); counts, turn, phase and result are kept up by
-- dim_games_stats.sql.
-- when: GameCreated
INSERT INTO dim_games
SELECT game, stream_id, h.system, h.tournament, TRY_CAST(h.round AS BIGINT), TRY_CAST(h."table" AS BIGINT), h.started,
       to_json(h.players), payload, h.setup.board, 0, 0, 0, NULL, coalesce(json_array_length(h.violations), 0),
       false, NULL, NULL, notification_id
FROM batch_headers;
