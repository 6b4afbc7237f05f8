-- The spells of each new game's setup (setup.spells), if it lists any.
-- when: GameCreated
INSERT INTO dim_spells
SELECT game, s.id, s.kind, s.path, s.casting_value, s.boosted_value
FROM (SELECT game, unnest(h.setup.spells) AS s FROM batch_headers);
