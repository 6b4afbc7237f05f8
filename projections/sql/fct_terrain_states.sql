-- Terrain of the setup, valid until a huge model destroys it (ModelMoved.destroyed, R53/R55).
-- when: GameCreated
INSERT INTO fct_terrain_states
SELECT game, t ->> 'id', t ->> 'kind', json_extract(t, '$.hexes'), 0, NULL
FROM (SELECT game, unnest(setup.terrain) AS t FROM new_headers);

-- when: ModelMoved
UPDATE fct_terrain_states s SET valid_to_seq = d.seq - 1
FROM (SELECT game, seq, unnest(json_extract_string(destroyed, '$[*]')) AS terrain
      FROM model_changes WHERE type = 'ModelMoved' AND destroyed <> '[]') d
WHERE s.game = d.game AND s.terrain = d.terrain AND s.valid_to_seq IS NULL;
