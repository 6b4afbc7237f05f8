-- The batch's state rows: an as-ruled timeline made again from its start drops its old rows, the rows
-- the batch's changes follow are closed, and the new rows added.
DELETE FROM fct_states s USING batch_resets r WHERE s.game = r.game AND s.ruled = r.ruled;

UPDATE fct_states s SET valid_to_seq = c.valid_to_seq
FROM batch_closes c
WHERE s.game = c.game AND s.ruled = c.ruled AND s.part = c.part AND s.key = c.key AND s.valid_to_seq IS NULL;

INSERT INTO fct_states
SELECT game, ruled, part, key, valid_from_seq, valid_to_seq, value FROM batch_changes
WHERE game IS NOT NULL;  -- (rows of a timeline made again within the batch are dropped: projections.replay)
