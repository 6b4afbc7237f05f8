-- New games from their headers; counts, turn, phase and result are kept up by dim_games_stats.sql.
-- when: GameCreated
INSERT INTO dim_games
SELECT game, stream_id, system, tournament, TRY_CAST(round AS BIGINT), TRY_CAST("table" AS BIGINT), started,
       to_json(players), header, setup.board, 0, 0, 0, NULL, coalesce(json_array_length(violations), 0),
       false, NULL, NULL, notification_id
FROM new_headers;
