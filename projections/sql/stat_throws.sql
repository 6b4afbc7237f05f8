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
