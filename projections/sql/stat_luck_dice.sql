CREATE TABLE IF NOT EXISTS stat_luck_dice (
    game VARCHAR,
    die VARCHAR,
    purpose VARCHAR,
    unit VARCHAR,
    throws BIGINT,
    dice BIGINT,
    observed DOUBLE,
    expected DOUBLE,
    luck DOUBLE,
    variance DOUBLE,
    label VARCHAR
);

DELETE FROM stat_luck_dice WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_luck_dice
SELECT t.game, t.die, t.purpose, t.unit, count(*), sum(t.n_dice), sum(t.observed ORDER BY t.seq, t.kind),
       sum(t.expected ORDER BY t.seq, t.kind), sum(t.luck ORDER BY t.seq, t.kind), sum(t.variance ORDER BY t.seq, t.kind),
       t.label
FROM stat_rows_of('stat_throws', $few) t SEMI JOIN stat_touched s ON s.game = t.game
GROUP BY t.game, t.die, t.purpose, t.label, t.unit;
