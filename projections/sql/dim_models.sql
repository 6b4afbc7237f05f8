-- Models of the setup (placed_seq 0) and of ModelPlaced events (placed_seq = its seq).
-- when: GameCreated, ModelPlaced
INSERT INTO dim_models
SELECT game, m.id, m.player, coalesce(m.name, m.id), m.size, coalesce(m.step, 0), coalesce(m.run, 0),
       coalesce(m.agility, 0), coalesce(m.explore, 0), placed_seq
FROM (SELECT game, placed_seq,
             json_transform(m, '{"id": "VARCHAR", "player": "VARCHAR", "name": "VARCHAR", "size": "VARCHAR",
                                 "step": "INTEGER", "run": "INTEGER", "agility": "INTEGER",
                                 "explore": "INTEGER"}') AS m
      FROM (SELECT game, unnest(setup.models) AS m, 0 AS placed_seq FROM new_headers
            UNION ALL
            SELECT g.game, r.d.model, r.d.seq
            FROM raw_events r JOIN dim_games g ON g.stream_id = r.originator_id
            WHERE r.topic = 'rollcall:ModelPlaced'));
