-- Ether vortices: setup (unaligned, R05), VortexStabilised (allegiance), VortexExplored (ether spent;
-- removed when it runs out, R03), VortexMoved (`to`, and `facing` when given).
-- Closes the open state of each changed vortex (its seed) and adds the batch's states.
-- when: SetupVortices, VortexStabilised, VortexExplored, VortexMoved
MERGE INTO fct_vortex_states s
USING (
    WITH changes AS (
        SELECT game, v.id AS vortex, 0::BIGINT AS seq, v.at AS pos, coalesce(v.facing, 0) AS facing,
               v.ether AS base, 0::BIGINT AS spent, {'set': NULL::VARCHAR} AS allegiance, false AS removed
        FROM (SELECT game, json_transform(unnest(setup.vortices),
                                          '{"id": "VARCHAR", "at": "JSON", "facing": "INTEGER", "ether": "BIGINT"}') AS v
              FROM new_headers)
        UNION ALL
        SELECT e.game, r.x.vortex, e.seq,
               CASE WHEN e.type = 'VortexMoved' THEN r.x.to END,
               CASE WHEN e.type = 'VortexMoved' THEN r.x.facing END,
               NULL,
               CASE WHEN e.type = 'VortexExplored' THEN r.x.ether_gained ELSE 0 END,
               CASE WHEN e.type = 'VortexStabilised' THEN {'set': r.x.allegiance} END,  -- may set it to null
               CASE WHEN e.type = 'VortexExplored' AND r.x.vortex_removed THEN true END
        FROM new_events e JOIN raw_events r USING (notification_id)
        WHERE e.type IN ('VortexStabilised', 'VortexExplored', 'VortexMoved')
    ), seeds AS (
        SELECT s.game, s.vortex, s.valid_from_seq, s.pos, s.facing, s.ether, 0, {'set': s.allegiance}, s.removed
        FROM fct_vortex_states s SEMI JOIN changes c ON c.game = s.game AND c.vortex = s.vortex
        WHERE s.valid_to_seq IS NULL
    )
    SELECT game, vortex, seq, is_seed,
           last_value(pos IGNORE NULLS) OVER w AS pos,
           last_value(facing IGNORE NULLS) OVER w AS facing,
           first_value(base IGNORE NULLS) OVER w - sum(spent) OVER w AS ether,
           (last_value(allegiance IGNORE NULLS) OVER w).set AS allegiance,
           coalesce(bool_or(removed) OVER w, false) AS removed,
           lead(seq) OVER w - 1 AS valid_to_seq
    FROM (SELECT *, false AS is_seed FROM changes UNION ALL SELECT *, true FROM seeds)
    WINDOW w AS (PARTITION BY game, vortex ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
) c
ON c.is_seed AND s.game = c.game AND s.vortex = c.vortex AND s.valid_from_seq = c.seq AND s.valid_to_seq IS NULL
WHEN MATCHED THEN UPDATE SET valid_to_seq = c.valid_to_seq
WHEN NOT MATCHED AND NOT c.is_seed THEN
    INSERT (game, vortex, pos, facing, ether, allegiance, removed, valid_from_seq, valid_to_seq)
    VALUES (c.game, c.vortex, c.pos, c.facing, c.ether, c.allegiance, c.removed, c.seq, c.valid_to_seq);
