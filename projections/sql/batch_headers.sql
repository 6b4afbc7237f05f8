-- The batch's new games: their headers (the GameCreated rows) read once, into the fields the dim_* files
-- take from them (each header is parsed here alone, not again by every file that needs a part of it).
CREATE OR REPLACE TEMP TABLE batch_headers AS
SELECT game, stream_id, notification_id, payload,
       json_transform(payload, '{"system": "VARCHAR", "tournament": "VARCHAR", "round": "VARCHAR", "table": "VARCHAR",
                                 "started": "VARCHAR", "players": "JSON[]", "violations": "JSON",
                                 "rules": {"dice": "JSON"},
                                 "setup": {"board": "JSON", "models": "JSON[]",
                                           "spells": [{"id": "VARCHAR", "kind": "VARCHAR", "path": "VARCHAR",
                                                       "casting_value": "INTEGER", "boosted_value": "INTEGER"}],
                                           "wizards": [{"id": "VARCHAR", "player": "VARCHAR"}]}}') AS h
FROM batch_events WHERE type = 'GameCreated' AND game IS NOT NULL;
