-- One row per die of each roll the batch made or re-rolled: the face first shown and the face shown last.
DELETE FROM fct_dice d USING batch_rolls b WHERE d.game = b.game AND d.roll_seq = b.seq;

INSERT INTO fct_dice
SELECT game, seq, idx - 1, original, final, original <> final, die, purpose, player, source
FROM (SELECT game, seq, die, purpose, player, source,
             unnest(json_extract_string(initial, '$[*]')) AS original,
             unnest(json_extract_string(faces, '$[*]')) AS final,
             generate_subscripts(json_extract_string(faces, '$[*]'), 1) AS idx
      FROM batch_rolls);
