-- Every projected game, in the order the games were recorded; replay_error: why its rules pack could not
-- replay it from some seq on (its read models stop there), NULL for a game replayed whole. Each game as the
-- viewer sees it ($held: projections/visibility.py).
SELECT g.game, g.system, g.tournament, g.round, g.table_no, g.started, g.players, g.events, g.last_seq, g.turn,
       g.phase, g.violations, g.ended, g.ended_at_time, g.winner, g.score,
       CASE WHEN f.game IS NOT NULL THEN 'seq ' || f.seq || ': ' || f.error END AS replay_error
FROM games_seen($held) g
LEFT JOIN fct_projection_failures f ON f.game = g.game
ORDER BY g.notification_id;
