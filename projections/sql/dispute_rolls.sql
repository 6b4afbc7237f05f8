-- The rolls a dispute about seqs $about of game $game involves: rolls among those seqs and the rolls
-- those events use (`roll`, `dodge`), each with its provenance, its re-rolls and the exact
-- probability of its outcome under the dice in force (fct_roll_odds); up to seq $upto (NULL: all): a roll
-- re-rolled after it is left out, and a use after it not named.
WITH about AS (
    SELECT seq, payload FROM fct_events WHERE game = $game AND list_contains($about, seq) AND ($upto IS NULL OR seq <= $upto)
), used AS (
    SELECT seq AS roll_seq FROM about
    UNION SELECT TRY_CAST(payload ->> 'roll' AS BIGINT) FROM about
    UNION SELECT TRY_CAST(payload ->> 'dodge' AS BIGINT) FROM about
), rerolls AS (
    SELECT roll_seq, list(original ORDER BY idx) FILTER (WHERE rerolled) AS rerolled_from,
           count(*) FILTER (WHERE rerolled) AS n_rerolled
    FROM fct_dice WHERE game = $game GROUP BY roll_seq
)
SELECT o.seq, o.player, o.purpose, o.die, o.n_dice, o.faces, coalesce(o.source, 'physical') AS source,
       o.successes, o.p_outcome, CASE WHEN $upto IS NULL OR r.used_by_seq <= $upto THEN r.used_by_seq END AS used_by_seq, coalesce(rr.n_rerolled, 0) AS n_rerolled, rr.rerolled_from
FROM roll_odds_of($game) o
JOIN fct_rolls r ON r.game = o.game AND r.seq = o.seq
LEFT JOIN rerolls rr ON rr.roll_seq = o.seq
WHERE o.game = $game AND o.seq IN (SELECT roll_seq FROM used)
  AND ($upto IS NULL OR o.seq NOT IN (SELECT seq FROM rolls_changed_after($game, $upto)))
ORDER BY o.seq;
