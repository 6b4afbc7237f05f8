-- The dice in force in each game (dim_dice.sql).
CREATE TABLE IF NOT EXISTS dim_dice (
    game VARCHAR,
    die VARCHAR,
    face VARCHAR,
    sides INTEGER,
    total BIGINT,
    ord BIGINT
);

-- The dice in force in each new game: a die the header's rules give replaces the system's default die
-- whole (dim_default_dice, loaded from the rule data); one row per face with the die's sides showing it
-- (sides) and the die's sides in all (total).
-- when: GameCreated
INSERT INTO dim_dice
WITH created AS (
    SELECT game, h.system, h.rules.dice FROM batch_headers
), overrides AS (
    SELECT c.game, d.key AS die, f.key AS face, TRY_CAST(f.value AS INTEGER) AS sides, f.id AS ord
    FROM created c, json_each(c.dice) d, json_each(d.value) f
), defaults AS (
    SELECT c.game, standard.die, standard.face, standard.sides, standard.ord
    FROM created c JOIN dim_default_dice standard ON standard.system = c.system
    WHERE NOT EXISTS (SELECT 1 FROM overrides o WHERE o.game = c.game AND o.die = standard.die)
)
SELECT game, die, face, sides, sum(sides) OVER (PARTITION BY game, die), ord
FROM (SELECT * FROM overrides UNION ALL SELECT * FROM defaults);
