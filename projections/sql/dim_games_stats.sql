-- Event count, last seq, turn and phase after it, violations and result of each game in the batch.
UPDATE dim_games g
SET events = g.events + s.n, last_seq = greatest(g.last_seq, s.last_seq),
    turn = s.last.turn, phase = s.last.phase, violations = g.violations + s.violations,
    ended = g.ended OR s.result IS NOT NULL,
    winner = CASE WHEN s.result IS NULL THEN g.winner ELSE s.result.winner END,
    score = CASE WHEN s.result IS NULL THEN g.score ELSE s.result.score END
FROM (SELECT e.game, count(*) AS n, max(e.seq) AS last_seq,
             arg_max({'turn': e.turn, 'phase': e.phase}, e.seq) AS last,
             sum(e.violations) AS violations, any_value(f.result) AS result
      FROM new_events e
      LEFT JOIN (SELECT e.game, arg_max({'winner': r.x.winner, 'score': r.x.score}, e.seq) AS result
                 FROM new_events e JOIN raw_events r USING (notification_id)
                 WHERE e.type = 'GameEnded' GROUP BY e.game) f USING (game)
      GROUP BY e.game) s
WHERE g.game = s.game;
