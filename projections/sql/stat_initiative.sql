CREATE TABLE IF NOT EXISTS stat_initiative (
    game VARCHAR,
    seq BIGINT,
    warrior VARCHAR,
    exhausted BOOLEAN,
    set_aside BOOLEAN
);

DELETE FROM stat_initiative WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_initiative
SELECT i.game, i.seq, i.warrior, i.exhausted, i.set_aside
FROM stat_rows_of('fct_initiative', $few) i SEMI JOIN stat_touched t ON t.game = i.game;
