-- Stored rows of the notification log (`stored_batch`: notification_id, originator_id, topic, state)
-- parsed once by DuckDB, where the batch is read (sources.py): `line` is the `data` of the stored state
-- (the header for GameCreated, else the event), `d` the fields every event needs, `m` those of a
-- ModelMoved and `x` those of the other events that need more (each parsed only for those events);
-- `pos` is where a model event puts its model (macros.sql).
SELECT notification_id, originator_id, topic, line, json_extract_string(state, '$.author') AS author,
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
                           'rollcall:GameEnded', 'rollcall:CastingAttempted', 'rollcall:DispelAttempted',
                           'rollcall:EtherConverted')
            THEN json_transform(line, '{
           "turn": "BIGINT", "phase": "VARCHAR", "purpose": "VARCHAR", "die": "VARCHAR", "faces": "JSON",
           "source": "VARCHAR", "roll": "BIGINT", "index": "INTEGER", "face": "VARCHAR", "by": "VARCHAR",
           "to": "JSON", "dodge": "BIGINT", "dodged": "BOOLEAN", "marker": "VARCHAR", "vortex": "VARCHAR",
           "facing": "INTEGER", "ether_gained": "BIGINT", "allegiance": "VARCHAR", "vortex_removed": "BOOLEAN",
           "points": "BIGINT", "winner": "VARCHAR", "score": "JSON", "amount": "BIGINT", "domain": "VARCHAR",
           "paid": "VARCHAR", "free_attacks": "JSON"}')
       END AS x,
       CASE topic WHEN 'rollcall:ModelMoved' THEN model_pos(json_extract(line, '$.path[#-1]'))
                  WHEN 'rollcall:ModelPlaced' THEN model_pos(json_extract(line, '$.model.at'))
                  WHEN 'rollcall:ModelEjected' THEN first_pos(json_extract(line, '$.to'))  -- one hex or hexon
                  WHEN 'rollcall:ModelDisplaced' THEN model_pos(json_extract(line, '$.to'))
       END::JSON AS pos
FROM (SELECT *, json_extract(state, '$.data') AS line FROM stored_batch
      WHERE topic NOT LIKE 'rollcall:DiceSeed%'         -- a digital game's secret seed is never projected,
        AND topic NOT LIKE 'rollcall-access:%');        -- nor the hashes of the access keys (seats pass: no game
                                                        -- table reads them)
