-- The last roll of game $game up to seq $upto (NULL: all) as ruled (the rolls a ruling voided, taken back or
-- rewound by then left out: fct_voided), and its re-rolls up to $upto, in order: what the overlay and the Live
-- page show as the last roll (projections/spectators.py folds the re-rolls in with the packs' add_roll).
WITH gone AS (
    SELECT seq FROM fct_voided WHERE game = $game AND ($upto IS NULL OR removed_by_seq <= $upto)
), last AS (
    SELECT max(seq) AS seq FROM fct_events
    WHERE game = $game AND type = 'DiceRolled' AND ($upto IS NULL OR seq <= $upto) AND seq NOT IN (SELECT seq FROM gone)
)
SELECT e.seq, e.type, e.payload
FROM fct_events e, last
WHERE e.game = $game AND ($upto IS NULL OR e.seq <= $upto) AND e.seq NOT IN (SELECT seq FROM gone)
  AND (e.seq = last.seq OR (e.type = 'DieRerolled' AND TRY_CAST(e.payload ->> 'roll' AS BIGINT) = last.seq))
ORDER BY e.seq;
