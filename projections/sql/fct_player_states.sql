-- Scores: 0 from the setup, then each PointsScored adds its points.
-- Closes the open state of each player who scores (its seed) and adds the batch's states.
-- when: GameCreated, PointsScored
MERGE INTO fct_player_states s
USING (
    WITH changes AS (
        SELECT game, p ->> 'id' AS player, 0::BIGINT AS seq, 0::BIGINT AS base, 0::BIGINT AS points
        FROM (SELECT game, unnest(players) AS p FROM new_headers)
        UNION ALL
        SELECT e.game, e.player, e.seq, NULL, r.x.points
        FROM new_events e JOIN raw_events r USING (notification_id) WHERE e.type = 'PointsScored'
    ), seeds AS (
        SELECT s.game, s.player, s.valid_from_seq, s.score, 0
        FROM fct_player_states s SEMI JOIN changes c ON c.game = s.game AND c.player = s.player
        WHERE s.valid_to_seq IS NULL
    )
    SELECT game, player, seq, is_seed,
           first_value(base IGNORE NULLS) OVER w + sum(points) OVER w AS score,
           lead(seq) OVER w - 1 AS valid_to_seq
    FROM (SELECT *, false AS is_seed FROM changes UNION ALL SELECT *, true FROM seeds)
    WINDOW w AS (PARTITION BY game, player ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
) c
ON c.is_seed AND s.game = c.game AND s.player = c.player AND s.valid_from_seq = c.seq AND s.valid_to_seq IS NULL
WHEN MATCHED THEN UPDATE SET valid_to_seq = c.valid_to_seq
WHEN NOT MATCHED AND NOT c.is_seed THEN
    INSERT (game, player, score, valid_from_seq, valid_to_seq)
    VALUES (c.game, c.player, c.score, c.seq, c.valid_to_seq);
