-- The replay state of every game, object by object (docs/replay.md): `part` is a map of objects
-- (players, models, terrain, markers, vortices, wizards, spells, warriors) with `key` the object's id, or a
-- single value (turn, phase, board, activation, pending, magic, human, initiative) with `key` ''. `value` is
-- the object as the replay JSON shows it, NULL where it is gone. `ruled`: the as-ruled game (only games a
-- ruling voided events of have such rows). Written by the projector from the rules packs' own apply.
CREATE TABLE IF NOT EXISTS fct_states (
    game VARCHAR,
    ruled BOOLEAN,
    part VARCHAR,
    key VARCHAR,
    valid_from_seq BIGINT,
    valid_to_seq BIGINT,
    value JSON
);

-- The batch's state rows: an as-ruled timeline made again from its start drops its old rows, the rows
-- the batch's changes follow are closed, and the new rows added.
DELETE FROM fct_states s USING batch_resets r WHERE s.game = r.game AND s.ruled = r.ruled;

UPDATE fct_states s SET valid_to_seq = c.valid_to_seq
FROM batch_closes c
WHERE s.game = c.game AND s.ruled = c.ruled AND s.part = c.part AND s.key = c.key AND s.valid_to_seq IS NULL;

INSERT INTO fct_states
SELECT game, ruled, part, key, valid_from_seq, valid_to_seq, value FROM batch_changes
WHERE game IS NOT NULL;  -- (rows of a timeline made again within the batch are dropped: projections.replay)
