-- The dice in force in each game: a die the header's rules give replaces the system's default die
-- whole (dim_default_dice, loaded from the rule data); one row per face with the die's sides showing it
-- (sides) and the die's sides in all (total).
CREATE OR REPLACE VIEW dim_dice AS
WITH overrides AS (
    SELECT g.game, d.key AS die, f.key AS face, f.value::INTEGER AS sides, f.id AS ord
    FROM dim_games g, json_each(json_extract(g.header, '$.rules.dice')) d, json_each(d.value) f
), defaults AS (
    SELECT g.game, standard.die, standard.face, standard.sides, standard.ord
    FROM dim_games g JOIN dim_default_dice standard ON standard.system = g.system
    WHERE NOT EXISTS (SELECT 1 FROM overrides o WHERE o.game = g.game AND o.die = standard.die)
)
SELECT game, die, face, sides, sum(sides) OVER (PARTITION BY game, die) AS total, ord
FROM (SELECT * FROM overrides UNION ALL SELECT * FROM defaults);
