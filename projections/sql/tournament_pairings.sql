-- The current pairing of round $round (NULL: the last round, paired here or played) of one tournament
-- ($tournament: its name, in any case): each table's game and players (p1 first) with the result so far as the
-- viewer sees it ($held: projections/visibility.py), then the bye.
WITH current AS (
    SELECT * FROM fct_pairings
    WHERE slug = name_slug($tournament) AND current
)
SELECT p.round, p.table_no, p.game, p.player, p.faction, p.opponent, p.opponent_faction, r.score, r.opponent_score,
       CASE WHEN p.game IS NULL THEN 'B' ELSE r.result END AS result, coalesce(r.ended_at_time, false) AS ended_at_time,
       p.scenario
FROM current p
LEFT JOIN results_seen($held) r ON r.game = p.game AND r.seat = 1
WHERE p.round = coalesce($round, (SELECT max(round) FROM current))
ORDER BY p.game IS NULL, p.table_no NULLS LAST, p.game;
