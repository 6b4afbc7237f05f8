-- The batch's events (narrow: their fields stay in raw_events), with what each needs from the events
-- and games before it: the turn and phase in force after it, the acting player (its `player`, else
-- the owner of its `model`) and that model's size.
CREATE OR REPLACE TEMP TABLE new_events AS
WITH parsed AS MATERIALIZED (
    SELECT r.notification_id, g.game, g.notification_id AS game_key, g.turn AS prev_turn, g.phase AS prev_phase,
           r.d.seq AS seq, r.d.type AS type, r.d.player AS player,
           CASE WHEN r.d.type = 'ModelPlaced' THEN json_extract_string(r.d.model, '$.id') ELSE r.d.model END AS model,
           r.x.turn AS new_turn, r.x.phase AS new_phase,
           coalesce(json_array_length(r.d.violations), 0) AS violations
    FROM raw_events r JOIN dim_games g ON g.stream_id = r.originator_id
    WHERE r.topic <> 'rollcall:GameCreated'
), marks AS (  -- turn and phase from each event that sets them on; seq -1: as the last batch left them
    SELECT game_key, seq, lead(seq) OVER w AS next_seq, last_value(turn IGNORE NULLS) OVER w AS turn, phase
    FROM (SELECT DISTINCT game_key, -1 AS seq, prev_turn AS turn, prev_phase AS phase FROM parsed
          UNION ALL
          SELECT game_key, seq, CASE WHEN type = 'TurnStarted' THEN new_turn END,
                 CASE type WHEN 'PhaseStarted' THEN new_phase WHEN 'MagicPhaseStarted' THEN 'magic' END  -- (t9a)
          FROM parsed WHERE type IN ('TurnStarted', 'PhaseStarted', 'MagicPhaseStarted'))
    WINDOW w AS (PARTITION BY game_key ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
), owners AS (  -- a model id may be placed again after its removal
    SELECT game, model, placed_seq, player, size,
           lead(placed_seq) OVER (PARTITION BY game, model ORDER BY placed_seq) AS next_placed_seq
    FROM dim_models WHERE game IN (SELECT game FROM parsed)
)
SELECT e.notification_id, e.game, e.seq, e.type, e.model, k.turn, k.phase,
       coalesce(e.player, m.player) AS player, m.size AS model_size, e.violations
FROM parsed e
JOIN marks k ON k.game_key = e.game_key AND e.seq >= k.seq AND (k.next_seq IS NULL OR e.seq < k.next_seq)
LEFT JOIN owners m ON m.game = e.game AND m.model = e.model AND e.seq >= m.placed_seq
                  AND (m.next_placed_seq IS NULL OR e.seq < m.next_placed_seq);
