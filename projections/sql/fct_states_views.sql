-- The state of each kind of object over time, from fct_states (as played): what the statistics and older
-- readers read by name.
CREATE OR REPLACE VIEW fct_model_states AS
SELECT game, key AS model, valid_from_seq, valid_to_seq, value -> 'at' AS pos, value IS NULL AS removed
FROM fct_states WHERE part = 'models' AND NOT ruled;

CREATE OR REPLACE VIEW fct_terrain_states AS
SELECT game, key AS terrain, value ->> 'kind' AS kind, value -> 'hexes' AS hexes, valid_from_seq, valid_to_seq
FROM fct_states WHERE part = 'terrain' AND NOT ruled AND value IS NOT NULL;

CREATE OR REPLACE VIEW fct_marker_states AS
SELECT game, key AS marker, value ->> 'kind' AS kind, value -> 'at' AS pos, value ->> 'linked_to' AS linked_to,
       valid_from_seq, valid_to_seq
FROM fct_states WHERE part = 'markers' AND NOT ruled AND value IS NOT NULL;

CREATE OR REPLACE VIEW fct_vortex_states AS
SELECT game, key AS vortex, value -> 'at' AS pos, (value ->> 'facing')::INTEGER AS facing,
       (value ->> 'ether')::BIGINT AS ether, value ->> 'allegiance' AS allegiance, (value ->> 'removed')::BOOLEAN AS removed,
       valid_from_seq, valid_to_seq
FROM fct_states WHERE part = 'vortices' AND NOT ruled AND value IS NOT NULL;

CREATE OR REPLACE VIEW fct_player_states AS
SELECT game, key AS player, (value ->> 'score')::BIGINT AS score, (value ->> 'crystals')::BIGINT AS crystals,
       (value -> 'faith' ->> 'creation')::BIGINT AS faith_creation,
       (value -> 'faith' ->> 'destruction')::BIGINT AS faith_destruction,
       (value -> 'faith' ->> 'life')::BIGINT AS faith_life, (value -> 'faith' ->> 'death')::BIGINT AS faith_death,
       valid_from_seq, valid_to_seq
FROM fct_states WHERE part = 'players' AND NOT ruled AND value IS NOT NULL;
