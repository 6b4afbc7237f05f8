-- Markers: setup, MarkerEjected (new hex), MarkerTaken (portable: leaves the board; bound: linked_to).
-- Closes the open state of each changed marker (its seed) and adds the batch's states.
-- when: SetupMarkers, MarkerEjected, MarkerTaken
MERGE INTO fct_marker_states s
USING (
    WITH changes AS (
        SELECT game, m ->> 'id' AS marker, 0::BIGINT AS seq, m ->> 'kind' AS kind,
               json_extract(m, '$.at') AS pos, NULL::VARCHAR AS linked_to, false AS taken
        FROM (SELECT game, unnest(setup.markers) AS m FROM new_headers)
        UNION ALL
        SELECT e.game, r.x.marker, e.seq, NULL, CASE WHEN e.type = 'MarkerEjected' THEN r.x.to END,
               CASE WHEN e.type = 'MarkerTaken' THEN e.model END, e.type = 'MarkerTaken'
        FROM new_events e JOIN raw_events r USING (notification_id)
        WHERE e.type IN ('MarkerEjected', 'MarkerTaken')
    ), seeds AS (
        SELECT s.game, s.marker, s.valid_from_seq, s.kind, s.pos, s.linked_to, false
        FROM fct_marker_states s SEMI JOIN changes c ON c.game = s.game AND c.marker = s.marker
        WHERE s.valid_to_seq IS NULL
    )
    SELECT game, marker, seq, is_seed,
           last_value(kind IGNORE NULLS) OVER w AS kind,
           last_value(pos IGNORE NULLS) OVER w AS pos,
           last_value(linked_to IGNORE NULLS) OVER w AS linked_to,
           taken AND last_value(kind IGNORE NULLS) OVER w = 'portable' AS removed,
           lead(seq) OVER w - 1 AS valid_to_seq
    FROM (SELECT *, false AS is_seed FROM changes UNION ALL SELECT *, true FROM seeds)
    WINDOW w AS (PARTITION BY game, marker ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
) c
ON c.is_seed AND s.game = c.game AND s.marker = c.marker AND s.valid_from_seq = c.seq AND s.valid_to_seq IS NULL
WHEN MATCHED THEN UPDATE SET valid_to_seq = c.valid_to_seq
-- kind NULL: a portable marker taken again after it left the board, which changes nothing
WHEN NOT MATCHED AND NOT c.is_seed AND NOT coalesce(c.removed, false) AND c.kind IS NOT NULL THEN
    INSERT (game, marker, kind, pos, linked_to, valid_from_seq, valid_to_seq)
    VALUES (c.game, c.marker, c.kind, c.pos, c.linked_to, c.seq, c.valid_to_seq);
