-- Dumped as initiative: One row per Claustrophobia action die assigned to a warrior's line.
-- Columns:
--   game: Game id (the header's `game`).
--   seq: Seq of the event in its game (1, 2, …).
--   turn: Game turn (Claustrophobia: round of the game).
--   warrior: Warrior id.
--   roll_seq: Seq of the roll (`DiceRolled`).
--   die_index: Index (0-based) of the die in the initiative roll.
--   line: Line of the warrior's card the die selects.
--   exhausted: Whether the warrior was exhausted by the die.
--   mvt: Movement value of the line the die selects.
--   cbt: Combat value of the line the die selects.
--   def: Defence value of the line the die selects.
--   set_aside: Whether the die was set aside unused.
-- Claustrophobia initiatives: each action die given to a warrior (its line, stats and whether it
-- exhausted the warrior) and each die set aside (R105).
CREATE OR REPLACE VIEW fct_initiative AS
SELECT e.game, e.seq, e.turn, e.payload ->> 'warrior' AS warrior, (e.payload ->> 'roll')::BIGINT AS roll_seq,
       (e.payload ->> 'index')::INTEGER AS die_index, (e.payload ->> 'line')::INTEGER AS line,
       (e.payload ->> 'exhausted')::BOOLEAN AS exhausted, (e.payload ->> 'mvt')::INTEGER AS mvt,
       (e.payload ->> 'cbt')::INTEGER AS cbt, (e.payload ->> 'def')::INTEGER AS def, false AS set_aside
FROM fct_events e WHERE NOT e.taken_back
    AND e.type IN (SELECT type FROM dim_facts WHERE fact = 'initiative' AND kind = 'assigned')
UNION ALL
SELECT e.game, e.seq, e.turn, NULL, NULL, unnest(CAST(e.payload -> 'set_aside' AS INTEGER[])), NULL, NULL, NULL,
       NULL, NULL, true
FROM fct_events e WHERE NOT e.taken_back AND json_array_length(e.payload -> 'set_aside') > 0
    AND e.type IN (SELECT type FROM dim_facts WHERE fact = 'initiative' AND kind = 'set_aside');
