-- Claustrophobia initiatives: each action die given to a warrior (its line, stats and whether it
-- exhausted the warrior) and each die set aside (R105).
CREATE OR REPLACE VIEW fct_initiative AS
SELECT e.game, e.seq, e.turn, e.payload ->> 'warrior' AS warrior, (e.payload ->> 'roll')::BIGINT AS roll_seq,
       (e.payload ->> 'index')::INTEGER AS die_index, (e.payload ->> 'line')::INTEGER AS line,
       (e.payload ->> 'exhausted')::BOOLEAN AS exhausted, (e.payload ->> 'mvt')::INTEGER AS mvt,
       (e.payload ->> 'cbt')::INTEGER AS cbt, (e.payload ->> 'def')::INTEGER AS def, false AS set_aside
FROM fct_events e WHERE NOT e.taken_back AND e.type = 'ActionDieAssigned'
UNION ALL
SELECT e.game, e.seq, e.turn, NULL, NULL, unnest(CAST(e.payload -> 'set_aside' AS INTEGER[])), NULL, NULL, NULL,
       NULL, NULL, true
FROM fct_events e WHERE NOT e.taken_back AND e.type = 'PhaseStarted' AND json_array_length(e.payload -> 'set_aside') > 0;
