-- Dumped as casts: One row per casting attempt in The 9th Age, with the exact odds of passing.
-- Columns:
--   game: Game id (the header's `game`).
--   seq: Seq of the event in its game (1, 2, …).
--   turn: Game turn (Claustrophobia: round of the game).
--   wizard: Wizard id.
--   spell: Spell id.
--   dice: Number of dice thrown.
--   version: `basic` or `boosted`.
--   modifier: Modifier added to the casting roll.
--   roll_seq: Seq of the roll (`DiceRolled`).
--   total: Total of the roll with its modifier.
--   passed: Whether the spell was cast.
--   miscast: Whether the casting roll is a miscast.
--   p_pass: Exact probability that a cast of these dice passes, under the game's rules.
--   p_miscast: Exact probability that a cast of these dice miscasts, under the game's rules.
--   player: Player id in the game (p1, p2).
--   kind: The spell's kind: normal, bound, attribute or replicable.
--   path: The spell's path (its lore of magic).
--   casting_value: The spell's casting value for the version cast.
-- The 9th Age casting attempts with the exact probabilities that such an attempt passes and that it miscasts,
-- as the game's rules pack computes them under the rules in force for that game (the event's odds, from the
-- replay). The spells and wizards: dim_spells, dim_wizards.
-- casts_of(gs): the same for the games of list gs alone (NULL: every game): the filter applies before the joins.
CREATE OR REPLACE MACRO casts_of(which_games) AS TABLE
WITH casts AS (
    SELECT e.game, e.seq, e.turn, e.payload ->> 'wizard' AS wizard, e.payload ->> 'spell' AS spell,
           (e.payload ->> 'dice')::INTEGER AS dice, coalesce(e.payload ->> 'version', 'basic') AS version,
           coalesce((e.payload ->> 'modifier')::INTEGER, 0) AS modifier, (e.payload ->> 'roll')::BIGINT AS roll_seq,
           (e.payload ->> 'total')::INTEGER AS total, (e.payload ->> 'passed')::BOOLEAN AS passed,
           (e.payload ->> 'miscast')::BOOLEAN AS miscast, (e.odds ->> 'pass')::DOUBLE AS p_pass,
           (e.odds ->> 'miscast')::DOUBLE AS p_miscast
    FROM fct_events e WHERE NOT e.taken_back AND e.type IN (SELECT type FROM dim_facts WHERE fact = 'casts') 
          AND (which_games IS NULL OR e.game IN (SELECT unnest(which_games)))
), spells AS (
    SELECT * FROM dim_spells WHERE which_games IS NULL OR game IN (SELECT unnest(which_games))
), wizards AS (
    SELECT * FROM dim_wizards WHERE which_games IS NULL OR game IN (SELECT unnest(which_games))
)
SELECT c.*, w.player, s.kind, s.path,
       coalesce(CASE WHEN c.version = 'boosted' THEN s.boosted_value END, s.casting_value) AS casting_value
FROM casts c LEFT JOIN spells s ON s.game = c.game AND s.spell = c.spell
LEFT JOIN wizards w ON w.game = c.game AND w.wizard = c.wizard;

CREATE OR REPLACE VIEW fct_casts AS SELECT * FROM casts_of(NULL);
