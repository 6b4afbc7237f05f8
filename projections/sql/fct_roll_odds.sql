-- Dumped as roll_odds: One row per roll with its successes and the exact probability of that outcome.
-- Columns:
--   game: Game id (the header's `game`).
--   seq: Seq of the event in its game (1, 2, …).
--   player: Player id in the game (p1, p2).
--   purpose: Why the dice were rolled (dodge, stabilisation, explore, vortex_move, casting, dispel, miscast, initiative, attack, other).
--   die: Die type (a die of the rules in force, e.g. attack, agility, d6).
--   n_dice: Number of dice in the roll.
--   faces: Faces shown (JSON list, one per die).
--   source: `physical` (entered from real dice or cards) or `digital` (drawn by Rollcall).
--   successes: Successes of the roll (faces success and crit count).
--   p_outcome: Exact probability of this outcome under the dice in force (explore: exactly these successes; dodge: dodged or not; other rolls: these faces).
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
