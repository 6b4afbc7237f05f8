-- The spells of each new game's setup (setup.spells), if it lists any.
-- when: GameCreated
INSERT INTO dim_spells
SELECT game, s.id, s.kind, s.path, s.casting_value, s.boosted_value
FROM (SELECT game, unnest(json_transform(payload, '{"setup": {"spells": [{"id": "VARCHAR", "kind": "VARCHAR",
              "path": "VARCHAR", "casting_value": "INTEGER", "boosted_value": "INTEGER"}]}}').setup.spells) AS s
      FROM batch_events WHERE type = 'GameCreated' AND game IS NOT NULL);
