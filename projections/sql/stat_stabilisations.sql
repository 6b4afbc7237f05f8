CREATE TABLE IF NOT EXISTS stat_stabilisations (
    game VARCHAR,
    seq BIGINT,
    player VARCHAR,
    face VARCHAR,
    ord INTEGER,
    probability DOUBLE,
    shown BOOLEAN
);

DELETE FROM stat_stabilisations WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_stabilisations
SELECT r.game, r.seq, r.player, d.face, d.ord, d.sides / d.total, CAST(r.faces AS VARCHAR[])[1] = d.face
FROM stat_rows_of('fct_rolls', $few) r SEMI JOIN stat_touched t ON t.game = r.game
JOIN stat_touched_dice d ON d.game = r.game AND d.die = r.die
WHERE r.purpose IN (SELECT purpose FROM dim_facts WHERE fact = 'stabilisations');
