-- Per player over time: score (PointsScored), ether crystals (gained by explores, spent on
-- conversions and paid re-rolls, R38-R40) and faith tokens by domain (from conversions).
-- Closes the open state of each player who changes (its seed) and adds the batch's states.
-- when: GameCreated, PointsScored, VortexExplored, EtherConverted, DieRerolled
MERGE INTO fct_player_states s
USING (
    WITH changes AS (
        SELECT game, p ->> 'id' AS player, 0::BIGINT AS seq, 0::BIGINT AS base,
               0::BIGINT AS points, 0::BIGINT AS crystals, 0::BIGINT AS creation, 0::BIGINT AS destruction,
               0::BIGINT AS life, 0::BIGINT AS death
        FROM (SELECT game, unnest(players) AS p FROM new_headers)
        UNION ALL
        SELECT e.game, e.player, e.seq, NULL,
               CASE WHEN e.type = 'PointsScored' THEN r.x.points ELSE 0 END,
               CASE e.type WHEN 'VortexExplored' THEN r.x.ether_gained
                           WHEN 'EtherConverted' THEN -r.x.amount
                           WHEN 'DieRerolled' THEN -1 ELSE 0 END,
               CASE WHEN r.x.domain = 'creation' THEN r.x.amount ELSE 0 END,
               CASE WHEN r.x.domain = 'destruction' THEN r.x.amount ELSE 0 END,
               CASE WHEN r.x.domain = 'life' THEN r.x.amount ELSE 0 END,
               CASE WHEN r.x.domain = 'death' THEN r.x.amount ELSE 0 END
        FROM new_events e JOIN raw_events r USING (notification_id)
        WHERE e.type IN ('PointsScored', 'VortexExplored', 'EtherConverted')
           OR (e.type = 'DieRerolled' AND coalesce(r.x.paid, 'crystal') = 'crystal'
               AND e.game IN (SELECT game FROM dim_games WHERE system = 'tornscape'))
    ), seeds AS (
        SELECT s.game, s.player, s.valid_from_seq, s.score, 0, s.crystals, s.faith_creation,
               s.faith_destruction, s.faith_life, s.faith_death
        FROM fct_player_states s SEMI JOIN changes c ON c.game = s.game AND c.player = s.player
        WHERE s.valid_to_seq IS NULL
    )
    SELECT game, player, seq, is_seed,
           first_value(base IGNORE NULLS) OVER w + sum(points) OVER w AS score,
           sum(crystals) OVER w AS crystals, sum(creation) OVER w AS creation,
           sum(destruction) OVER w AS destruction, sum(life) OVER w AS life, sum(death) OVER w AS death,
           lead(seq) OVER w - 1 AS valid_to_seq
    FROM (SELECT *, false AS is_seed FROM changes UNION ALL SELECT *, true FROM seeds)
    WINDOW w AS (PARTITION BY game, player ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
) c
ON c.is_seed AND s.game = c.game AND s.player = c.player AND s.valid_from_seq = c.seq AND s.valid_to_seq IS NULL
WHEN MATCHED THEN UPDATE SET valid_to_seq = c.valid_to_seq
WHEN NOT MATCHED AND NOT c.is_seed THEN
    INSERT (game, player, score, crystals, faith_creation, faith_destruction, faith_life, faith_death,
            valid_from_seq, valid_to_seq)
    VALUES (c.game, c.player, c.score, c.crystals, c.creation, c.destruction, c.life, c.death, c.seq,
            c.valid_to_seq);
