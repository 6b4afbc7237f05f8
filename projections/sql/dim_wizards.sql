-- The wizards of each new game's setup (setup.wizards), if it lists any.
-- when: GameCreated
INSERT INTO dim_wizards
SELECT game, w.id, w.player
FROM (SELECT game, unnest(json_transform(payload, '{"setup": {"wizards": [{"id": "VARCHAR", "player": "VARCHAR"}]}}')
                          .setup.wizards) AS w
      FROM batch_events WHERE type = 'GameCreated' AND game IS NOT NULL);
