-- Rolls as finally shown (after re-rolls) and the last event that used them: the rolls the batch's events
-- made, re-rolled or used, replaced whole (a roll taken back comes without its die: it is gone).
DELETE FROM fct_rolls r USING batch_rolls b WHERE r.game = b.game AND r.seq = b.seq;

INSERT INTO fct_rolls
SELECT game, seq, player, purpose, die, json_array_length(faces), faces, source, used_by_seq, label, needs,
       successes, p_outcome
FROM batch_rolls
WHERE die IS NOT NULL;
