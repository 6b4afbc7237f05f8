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
    FROM fct_events e WHERE NOT e.taken_back AND e.type = 'CastingAttempted' 
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
