-- Every change of a model's position in the batch (setup, placed, moved, ejected, displaced, removed),
-- with the still-open state of each changed model (is_seed): prev_pos is the position before the
-- change, valid_to_seq the seq before the model's next change, placed_seq the seq of its placement.
-- A move keeps its fields for fct_moves.
-- when: GameCreated, ModelPlaced, ModelMoved, ModelEjected, ModelDisplaced, ModelRemoved
CREATE OR REPLACE TEMP TABLE model_changes AS
WITH changes AS (
    SELECT game, m ->> 'id' AS model, 0::BIGINT AS seq, model_pos(json_extract(m, '$.at')) AS pos,
           false AS removed, 0::BIGINT AS placed_seq, NULL::VARCHAR AS type, NULL::VARCHAR AS player,
           NULL::VARCHAR AS action, NULL::JSON AS path, NULL::JSON AS free_attacks, NULL::JSON AS must_eject,
           NULL::JSON AS destroyed, NULL::JSON AS markers_to_eject
    FROM (SELECT game, unnest(setup.models) AS m FROM new_headers)
    UNION ALL
    SELECT e.game, e.model, e.seq, r.pos, e.type = 'ModelRemoved', CASE WHEN e.type = 'ModelPlaced' THEN e.seq END,
           e.type, e.player, r.m.action, r.m.path, r.m.free_attacks, r.m.must_eject, r.m.destroyed, r.m.markers_to_eject
    FROM new_events e JOIN raw_events r USING (notification_id)
    WHERE e.type IN ('ModelPlaced', 'ModelMoved', 'ModelEjected', 'ModelDisplaced', 'ModelRemoved')
      -- R72: a large or huge model that dodges a displacement stays where it is
      AND NOT (e.type = 'ModelDisplaced' AND e.model_size <> 'infantry' AND coalesce(r.x.dodged, false))
), seeds AS (
    SELECT s.game, s.model, s.valid_from_seq, s.pos, s.removed, s.placed_seq,
           NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL
    FROM fct_model_states s SEMI JOIN changes c ON c.game = s.game AND c.model = s.model
    WHERE s.valid_to_seq IS NULL
)
SELECT * REPLACE (last_value(placed_seq IGNORE NULLS) OVER w AS placed_seq),
       lag(pos) OVER w AS prev_pos, lead(seq) OVER w - 1 AS valid_to_seq
FROM (SELECT *, false AS is_seed FROM changes UNION ALL SELECT *, true FROM seeds)
WINDOW w AS (PARTITION BY game, model ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW);
