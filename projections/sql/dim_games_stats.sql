-- Event count, last seq, turn and phase after it, violations and result of each game in the batch.
UPDATE dim_games g
SET events = g.events + s.n, last_seq = greatest(g.last_seq, s.last_seq),
    turn = s.last.turn, phase = s.last.phase, violations = g.violations + s.violations,
    ended = g.ended OR s.result IS NOT NULL,
    winner = CASE WHEN s.result IS NULL THEN g.winner ELSE s.result.winner END,
    score = CASE WHEN s.result IS NULL THEN g.score ELSE s.result.score END
FROM (SELECT game, count(*) AS n, max(seq) AS last_seq, arg_max({'turn': turn, 'phase': phase}, seq) AS last,
             sum(violations) AS violations,
             (SELECT arg_max({'winner': r.x.winner, 'score': r.x.score}, e2.seq)
              FROM new_events e2 JOIN raw_events r USING (notification_id)
              WHERE e2.game = e.game AND e2.type = 'GameEnded') AS result
      FROM new_events e GROUP BY game) s
WHERE g.game = s.game;
