-- Models of the setup (placed_seq 0) and of ModelPlaced events (placed_seq = its seq).
-- when: GameCreated, ModelPlaced
INSERT INTO dim_models
SELECT game, m.id, m.player, coalesce(m.name, m.id), m.size, coalesce(m.step, 0), coalesce(m.run, 0),
       coalesce(m.agility, 0), coalesce(m.explore, 0), placed_seq
FROM (SELECT game, placed_seq,
             json_transform(m, '{"id": "VARCHAR", "player": "VARCHAR", "name": "VARCHAR", "size": "VARCHAR",
                                 "step": "INTEGER", "run": "INTEGER", "agility": "INTEGER",
                                 "explore": "INTEGER"}') AS m
      FROM (SELECT game, unnest(json_transform(payload, '{"setup": {"models": "JSON[]"}}').setup.models) AS m,
                   0 AS placed_seq
            FROM batch_events WHERE type = 'GameCreated' AND game IS NOT NULL
            UNION ALL
            SELECT game, json_extract(payload, '$.model'), seq FROM batch_events WHERE type = 'ModelPlaced'));
