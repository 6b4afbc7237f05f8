-- Dumped as rolls: One row per dice roll (`DiceRolled`).
CREATE TABLE IF NOT EXISTS fct_rolls (
    game VARCHAR,  -- Game id (the header's `game`).
    seq BIGINT,  -- Seq of the event in its game (1, 2, …).
    player VARCHAR,  -- Player id in the game (p1, p2).
    purpose VARCHAR,  -- Why the dice were rolled (dodge, stabilisation, explore, vortex_move, casting, dispel, miscast, initiative, attack, other).
    die VARCHAR,  -- Die type (a die of the rules in force, e.g. attack, agility, d6).
    n_dice INTEGER,  -- Number of dice in the roll.
    faces JSON,  -- Faces shown (JSON list, one per die).
    source VARCHAR,  -- `physical` (entered from real dice or cards) or `digital` (drawn by Rollcall).
    used_by_seq BIGINT,  -- Seq of the event that used the roll.
    label VARCHAR,  -- What a roll of purpose other was for (e.g. shooting: to hit); empty for the other purposes.
    needs INTEGER,  -- The face each die of a roll of purpose other must reach to count as a success, if it names one.
    successes INTEGER,  -- Successes of the roll (faces success and crit count).
    p_outcome DOUBLE  -- Exact probability of this outcome under the dice in force (explore: exactly these successes; dodge: dodged or not; other rolls: these faces).
);

-- Rolls as finally shown (after re-rolls) and the last event that used them: the rolls the batch's events
-- made, re-rolled or used, replaced whole (a roll taken back comes without its die: it is gone).
DELETE FROM fct_rolls r USING batch_rolls b WHERE r.game = b.game AND r.seq = b.seq;

INSERT INTO fct_rolls
SELECT game, seq, player, purpose, die, json_array_length(faces), faces, source, used_by_seq, label, needs,
       successes, p_outcome
FROM batch_rolls
WHERE die IS NOT NULL;
