-- The batch as read from the event store (`arrow_batch`, an Arrow table), its record lines parsed
-- once: `line` is the `data` of the stored state (the header for GameCreated, else the event), `d`
-- the fields every event needs, `m` those of a ModelMoved and `x` those of the other events that
-- need more (each parsed only for the events that have them).
CREATE OR REPLACE TEMP TABLE raw_events AS
SELECT notification_id, originator_id, topic, line,
       CASE WHEN topic <> 'rollcall:GameCreated' THEN json_transform(line, '{
           "seq": "BIGINT", "type": "VARCHAR", "player": "VARCHAR", "model": "VARCHAR", "violations": "JSON"}')
       END AS d,
       CASE WHEN topic = 'rollcall:ModelMoved' THEN json_transform(line, '{
           "action": "VARCHAR", "path": "JSON", "free_attacks": "JSON", "must_eject": "JSON", "destroyed": "JSON",
           "markers_to_eject": "JSON"}')
       END AS m,
       CASE WHEN topic IN ('rollcall:TurnStarted', 'rollcall:PhaseStarted', 'rollcall:DiceRolled',
                           'rollcall:DieRerolled', 'rollcall:ModelEjected', 'rollcall:ModelDisplaced',
                           'rollcall:MarkerEjected', 'rollcall:MarkerTaken', 'rollcall:VortexStabilised',
                           'rollcall:VortexExplored', 'rollcall:VortexMoved', 'rollcall:PointsScored',
                           'rollcall:GameEnded')
            THEN json_transform(line, '{
           "turn": "BIGINT", "phase": "VARCHAR", "purpose": "VARCHAR", "die": "VARCHAR", "faces": "JSON",
           "source": "VARCHAR", "roll": "BIGINT", "index": "INTEGER", "face": "VARCHAR", "by": "VARCHAR",
           "to": "JSON", "dodge": "BIGINT", "dodged": "BOOLEAN", "marker": "VARCHAR", "vortex": "VARCHAR",
           "facing": "INTEGER", "ether_gained": "BIGINT", "allegiance": "VARCHAR", "vortex_removed": "BOOLEAN",
           "points": "BIGINT", "winner": "VARCHAR", "score": "JSON"}')
       END AS x
FROM (SELECT *, json_extract(state, '$.data') AS line FROM arrow_batch);

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
