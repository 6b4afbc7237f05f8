-- The throws of stat_throws summed per game, player and unit (name and faction: the player's), and per
-- game, die, purpose and unit: what the luck of a tournament or a season adds up, a row a game and player.
CREATE TABLE IF NOT EXISTS stat_luck (
    game VARCHAR,
    player VARCHAR,
    name VARCHAR,
    faction VARCHAR,
    unit VARCHAR,
    throws BIGINT,
    dice BIGINT,
    observed DOUBLE,
    expected DOUBLE,
    luck DOUBLE,
    variance DOUBLE
);

-- Sums in the order of the throws: a refresh gives the figures of a rebuild to the last bit.
DELETE FROM stat_luck WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_luck
SELECT t.game, t.player, any_value(p.name), any_value(p.faction), t.unit, count(*), sum(t.n_dice),
       sum(t.observed ORDER BY t.seq, t.kind), sum(t.expected ORDER BY t.seq, t.kind), sum(t.luck ORDER BY t.seq, t.kind),
       sum(t.variance ORDER BY t.seq, t.kind)
FROM stat_rows_of('stat_throws', $few) t SEMI JOIN stat_touched s ON s.game = t.game
LEFT JOIN dim_players p ON p.game = t.game AND p.player = t.player
GROUP BY t.game, t.player, t.unit;
