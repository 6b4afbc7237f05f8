-- The 9th Age dispel attempts against the casting total they answer, with the exact probability
-- that such an attempt dispels (sum of `dice` d6 >= the casting total, a tie dispelling; a single
-- die's natural 1 or 2 failing).
CREATE OR REPLACE VIEW fct_dispels AS
WITH dispels AS (
    SELECT e.game, e.seq, e.turn, e.player, e.payload ->> 'wizard' AS wizard, (e.payload ->> 'dice')::INTEGER AS dice,
           (e.payload ->> 'roll')::BIGINT AS roll_seq, (e.payload ->> 'total')::INTEGER AS total,
           (e.payload ->> 'dispelled')::BOOLEAN AS dispelled,
           (SELECT max(c.seq) FROM fct_events c
            WHERE c.game = e.game AND c.seq < e.seq AND c.type = 'CastingAttempted') AS cast_seq
    FROM fct_events e WHERE NOT e.taken_back AND e.type = 'DispelAttempted'
)
SELECT d.*, (c.payload ->> 'spell') AS spell, (c.payload ->> 'total')::INTEGER AS casting_total,
       (SELECT coalesce(sum(s.ways), 0) FROM dim_d6_sums s
        WHERE s.dice = d.dice AND s.total >= (c.payload ->> 'total')::INTEGER AND (d.dice > 1 OR s.total >= 3)) / (6.0 ** d.dice)
           AS p_dispel
FROM dispels d JOIN fct_events c ON c.game = d.game AND c.seq = d.cast_seq;
