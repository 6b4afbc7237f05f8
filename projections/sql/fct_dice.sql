-- Dumped as dice: One row per die of every roll, with its re-roll.
CREATE TABLE IF NOT EXISTS fct_dice (
    game VARCHAR,  -- Game id (the header's `game`).
    roll_seq BIGINT,  -- Seq of the roll (`DiceRolled`).
    idx INTEGER,  -- Index (0-based) of the die in its roll.
    original VARCHAR,  -- Face the die first showed.
    final VARCHAR,  -- Face the die shows after re-rolls.
    rerolled BOOLEAN,  -- Whether the die was re-rolled.
    die VARCHAR,  -- Die type (a die of the rules in force, e.g. attack, agility, d6).
    purpose VARCHAR,  -- Why the dice were rolled (dodge, stabilisation, explore, vortex_move, casting, dispel, miscast, initiative, attack, other).
    player VARCHAR,  -- Player id in the game (p1, p2).
    source VARCHAR  -- `physical` (entered from real dice or cards) or `digital` (drawn by Rollcall).
);

-- One row per die of each roll the batch made or re-rolled: the face first shown and the face shown last.
DELETE FROM fct_dice d USING batch_rolls b WHERE d.game = b.game AND d.roll_seq = b.seq;

INSERT INTO fct_dice
SELECT game, seq, idx - 1, original, final, original <> final, die, purpose, player, source
FROM (SELECT game, seq, die, purpose, player, source,
             unnest(json_extract_string(initial, '$[*]')) AS original,
             unnest(json_extract_string(faces, '$[*]')) AS final,
             generate_subscripts(json_extract_string(faces, '$[*]'), 1) AS idx
      FROM batch_rolls);
