-- The spells and wizards a game's setup lists (a system without them has none): what casts and dispels join.
CREATE TABLE IF NOT EXISTS dim_spells (
    game VARCHAR,
    spell VARCHAR,
    kind VARCHAR,
    path VARCHAR,
    casting_value INTEGER,
    boosted_value INTEGER
);

-- The spells of each new game's setup (setup.spells), if it lists any.
-- when: GameCreated
INSERT INTO dim_spells
SELECT game, s.id, s.kind, s.path, s.casting_value, s.boosted_value
FROM (SELECT game, unnest(h.setup.spells) AS s FROM batch_headers);
