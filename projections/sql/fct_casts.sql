-- The 9th Age casting attempts with the exact probability that such an attempt passes: the sum of
-- `dice` d6 plus the modifier reaching the casting value of the declared version, a single die's
-- natural 1 or 2 failing (X01). Bound spells always pass (X03). The spells and wizards: dim_spells, dim_wizards.
-- casts_of(gs): the same for the games of list gs alone (NULL: every game): the filter applies before the joins.
CREATE OR REPLACE MACRO casts_of(which_games) AS TABLE
WITH casts AS (
    SELECT e.game, e.seq, e.turn, e.payload ->> 'wizard' AS wizard, e.payload ->> 'spell' AS spell,
           (e.payload ->> 'dice')::INTEGER AS dice, coalesce(e.payload ->> 'version', 'basic') AS version,
           coalesce((e.payload ->> 'modifier')::INTEGER, 0) AS modifier, (e.payload ->> 'roll')::BIGINT AS roll_seq,
           (e.payload ->> 'total')::INTEGER AS total, (e.payload ->> 'passed')::BOOLEAN AS passed,
           (e.payload ->> 'miscast')::BOOLEAN AS miscast
    FROM fct_events e WHERE NOT e.taken_back AND e.type = 'CastingAttempted' 
          AND (which_games IS NULL OR e.game IN (SELECT unnest(which_games)))
), spells AS (
    SELECT * FROM dim_spells WHERE which_games IS NULL OR game IN (SELECT unnest(which_games))
), wizards AS (
    SELECT * FROM dim_wizards WHERE which_games IS NULL OR game IN (SELECT unnest(which_games))
)
SELECT c.*, w.player, s.kind, s.path,
       CASE WHEN c.version = 'boosted' THEN s.boosted_value ELSE s.casting_value END AS casting_value,
       CASE WHEN s.kind = 'bound' THEN 1.0
            ELSE (SELECT coalesce(sum(d.ways), 0) FROM dim_d6_sums d
                  WHERE d.dice = c.dice AND d.total + c.modifier >= (CASE WHEN c.version = 'boosted'
                                                                       THEN s.boosted_value ELSE s.casting_value END)
                    AND (c.dice > 1 OR d.total >= 3)) / (6.0 ** c.dice) END AS p_pass
FROM casts c LEFT JOIN spells s ON s.game = c.game AND s.spell = c.spell
LEFT JOIN wizards w ON w.game = c.game AND w.wizard = c.wizard;

CREATE OR REPLACE VIEW fct_casts AS SELECT * FROM casts_of(NULL);
