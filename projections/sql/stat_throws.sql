-- One row per throw of dice: a roll's dice as they first showed (fct_dice.original), and each re-roll
-- (DieRerolled) as a throw of its own one die. unit 'successes' (faces success and crit count 1) for
-- dice with named faces, 'pips' (the face's number) for numbered dice such as the d6; expected and
-- variance are those of the dice in force (dim_dice). luck = observed - expected, z_score = luck / sd.
CREATE TABLE IF NOT EXISTS stat_throws (
    game VARCHAR,
    seq BIGINT,
    roll_seq BIGINT,
    turn BIGINT,
    player VARCHAR,
    purpose VARCHAR,
    die VARCHAR,
    kind VARCHAR,
    unit VARCHAR,
    n_dice INTEGER,
    observed DOUBLE,
    expected DOUBLE,
    variance DOUBLE,
    luck DOUBLE,
    z_score DOUBLE,
    label VARCHAR  -- what a roll of purpose other was for
);

DELETE FROM stat_throws WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_throws
WITH needs AS (  -- each die with the face its dice must reach (NULL: none, every face its value)
    SELECT DISTINCT game, die, needs FROM stat_touched_shown
), valued AS (  -- a face's value: its number or success, or, where a roll names what a die needs, 1 if reached
    SELECT d.game, d.die, n.needs, d.face, d.sides, d.total, d.numbered,
           CASE WHEN n.needs IS NULL THEN d.value ELSE (d.face::DOUBLE >= n.needs)::INTEGER::DOUBLE END AS value
    FROM stat_touched_dice d JOIN needs n ON n.game = d.game AND n.die = d.die
), moments AS (
    SELECT game, die, needs, bool_and(numbered) AND needs IS NULL AS numbered, sum(sides * value) / any_value(total) AS mean,
           sum(sides * value * value) / any_value(total) - (sum(sides * value) / any_value(total)) ** 2 AS var
    FROM valued GROUP BY game, die, needs
), throws AS (
    SELECT s.game, s.seq, s.roll_seq, s.player, s.purpose, s.label, s.die, s.needs, s.kind, count(*)::INTEGER AS n_dice,
           sum(d.value) AS observed
    FROM stat_touched_shown s JOIN valued d ON d.game = s.game AND d.die = s.die AND d.face = s.face
                                            AND d.needs IS NOT DISTINCT FROM s.needs
    GROUP BY ALL
)
SELECT t.game, t.seq, t.roll_seq, e.turn, t.player, t.purpose, t.die, t.kind,
       CASE WHEN die.numbered THEN 'pips' ELSE 'successes' END, t.n_dice, t.observed, t.n_dice * die.mean,
       t.n_dice * greatest(die.var, 0), t.observed - t.n_dice * die.mean,
       CASE WHEN die.var > 1e-12 THEN (t.observed - t.n_dice * die.mean) / sqrt(t.n_dice * die.var) END, t.label
FROM throws t JOIN moments die ON die.game = t.game AND die.die = t.die AND die.needs IS NOT DISTINCT FROM t.needs
LEFT JOIN (SELECT ev.game, ev.seq, ev.turn
           FROM stat_rows_of('fct_events', $few) ev SEMI JOIN stat_touched touched ON touched.game = ev.game) e
       ON e.game = t.game AND e.seq = t.seq;
