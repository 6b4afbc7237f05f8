-- The events a take-back or a rewind took back (domain/corrections.py): marked in fct_events and left out of
-- the moves and ejections (they did not happen; the event list still shows them, struck through). The rolls
-- they made are gone from fct_rolls and fct_dice already: the replay's rolls are the state's.
-- when: TakenBack, GameRewound
CREATE OR REPLACE TEMP TABLE batch_taken_back AS
SELECT game, unnest(CAST(payload -> 'taken_back' AS BIGINT[])) AS seq
FROM batch_events WHERE type IN ('TakenBack', 'GameRewound') AND game IS NOT NULL;

-- when: TakenBack, GameRewound
UPDATE fct_events e SET taken_back = true FROM batch_taken_back t WHERE e.game = t.game AND e.seq = t.seq;

-- when: TakenBack, GameRewound
DELETE FROM fct_moves r USING batch_taken_back t WHERE r.game = t.game AND r.seq = t.seq;

-- when: TakenBack, GameRewound
DELETE FROM fct_ejections r USING batch_taken_back t WHERE r.game = t.game AND r.seq = t.seq;
