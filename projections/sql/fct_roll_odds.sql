-- Every roll with its successes and the exact probability of its outcome, as the game's rules pack judges it
-- under the dice in force (the replay's, in fct_rolls: GameSystem.roll_odds — e.g. Tornscape's explore, exactly
-- k successes; its dodge, dodged or not; a roll that names the face its dice need, exactly k reaching it; any
-- other roll, the faces shown in any order).
-- roll_odds_of(g): the same for game g alone (NULL: every game), which a per-game reader uses.
CREATE OR REPLACE MACRO roll_odds_of(which_game) AS TABLE
SELECT r.game, r.seq, r.player, r.purpose, r.die, r.n_dice, r.faces, r.source, r.successes, r.p_outcome
FROM fct_rolls r WHERE which_game IS NULL OR r.game = which_game;

CREATE OR REPLACE VIEW fct_roll_odds AS SELECT * FROM roll_odds_of(NULL);

-- The rolls of game g that a re-roll after seq upto changed (their faces in fct_rolls are those after it): what a
-- viewer kept at upto by a broadcast delay (projections/visibility.py) may not see of them yet.
CREATE OR REPLACE MACRO rolls_changed_after(g, upto) AS TABLE
SELECT DISTINCT TRY_CAST(payload ->> 'roll' AS BIGINT) AS seq FROM fct_events
WHERE game = g AND type = 'DieRerolled' AND seq > upto;
