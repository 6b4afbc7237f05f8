-- The games' outcomes with their exact odds, per game (copied from the analytic views so that a
-- tournament's figures read small tables): casting attempts with P(pass) and P(miscast) (from the rules pack,
-- under the rules in force), dispels with P(dispel), each face of each
-- stabilisation die with its probability and whether it showed, card draws of every deck (Flux too),
-- initiative dice, each vortex's drift and each player's ether harvested.
CREATE TABLE IF NOT EXISTS stat_casts (
    game VARCHAR,
    seq BIGINT,
    player VARCHAR,
    dice INTEGER,
    kind VARCHAR,
    passed BOOLEAN,
    p_pass DOUBLE,
    miscast BOOLEAN,
    p_miscast DOUBLE
);

DELETE FROM stat_casts WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_casts
SELECT c.game, c.seq, c.player, c.dice, c.kind, c.passed, c.p_pass, c.miscast, c.p_miscast
FROM casts_of($few) c SEMI JOIN stat_touched t ON t.game = c.game;
