CREATE TABLE IF NOT EXISTS stat_dispels (
    game VARCHAR,
    seq BIGINT,
    player VARCHAR,
    dice INTEGER,
    dispelled BOOLEAN,
    p_dispel DOUBLE
);

DELETE FROM stat_dispels WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_dispels
SELECT d.game, d.seq, d.player, d.dice, d.dispelled, d.p_dispel
FROM dispels_of($few) d SEMI JOIN stat_touched t ON t.game = d.game;
