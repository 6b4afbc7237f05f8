-- The batch (`arrow_batch`: its rows as parsed_batch.sql parsed them) in the raw table of this
-- transaction, which every other file derives from.
CREATE OR REPLACE TEMP TABLE raw_events AS SELECT * FROM arrow_batch;

-- New games: their headers, parsed once.
CREATE OR REPLACE TEMP TABLE new_headers AS
SELECT notification_id, stream_id, header, h.game AS game, h.* EXCLUDE (game)
FROM (SELECT notification_id, originator_id AS stream_id, line AS header,
             json_transform(line, '{"game": "VARCHAR", "system": "VARCHAR", "tournament": "VARCHAR",
                                    "round": "VARCHAR", "table": "VARCHAR", "started": "VARCHAR",
                                    "players": "JSON[]", "violations": "JSON",
                                    "setup": {"board": "JSON", "models": "JSON[]", "terrain": "JSON[]",
                                              "markers": "JSON[]", "vortices": "JSON[]"}}') AS h
      FROM raw_events WHERE topic = 'rollcall:GameCreated');

-- The event types of the batch, and SetupMarkers / SetupVortices when a new game has some (see sqlfiles.py).
SELECT (SELECT list(DISTINCT topic) FROM raw_events),
       (SELECT [bool_or(len(setup.markers) > 0), bool_or(len(setup.vortices) > 0)] FROM new_headers);
