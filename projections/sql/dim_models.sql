-- Dumped as models: One row per Tornscape model of every game, as set up or placed.
CREATE TABLE IF NOT EXISTS dim_models (
    game VARCHAR,  -- Game id (the header's `game`).
    model VARCHAR,  -- Model id.
    player VARCHAR,  -- Player id of the model's owner.
    name VARCHAR,  -- The model's name.
    size VARCHAR,  -- infantry, large or huge.
    step INTEGER,  -- Step distance.
    run INTEGER,  -- Run distance.
    agility INTEGER,  -- Agility dice on the model's shield.
    explore INTEGER,  -- Dice on the model's Explore tile.
    placed_seq BIGINT  -- Seq at which the model was placed (0: in the setup).
);

-- Models of the setup (placed_seq 0) and of ModelPlaced events (placed_seq = its seq).
-- when: GameCreated, placements
INSERT INTO dim_models
SELECT game, model.id, model.player, coalesce(model.name, model.id), model.size, coalesce(model.step, 0),
       coalesce(model.run, 0), coalesce(model.agility, 0), coalesce(model.explore, 0), placed_seq
FROM (SELECT game, placed_seq,
             json_transform(model, '{"id": "VARCHAR", "player": "VARCHAR", "name": "VARCHAR", "size": "VARCHAR",
                                     "step": "INTEGER", "run": "INTEGER", "agility": "INTEGER",
                                     "explore": "INTEGER"}') AS model
      FROM (SELECT game, unnest(h.setup.models) AS model, 0 AS placed_seq FROM batch_headers
            UNION ALL
            SELECT game, json_extract(payload, '$.model'), seq FROM batch_events
            WHERE type IN (SELECT type FROM dim_facts WHERE fact = 'placements')));
