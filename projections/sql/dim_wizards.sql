CREATE TABLE IF NOT EXISTS dim_wizards (
    game VARCHAR,
    wizard VARCHAR,
    player VARCHAR
);

-- The wizards of each new game's setup (setup.wizards), if it lists any.
-- when: GameCreated
INSERT INTO dim_wizards
SELECT game, w.id, w.player
FROM (SELECT game, unnest(h.setup.wizards) AS w FROM batch_headers);
