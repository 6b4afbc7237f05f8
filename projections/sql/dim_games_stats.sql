-- Event count, last seq, turn and phase after it, violations and result of each game in the batch.
UPDATE dim_games g
SET events = g.events + s.n, last_seq = greatest(g.last_seq, s.last_seq),
    turn = s.last.turn, phase = s.last.phase, violations = g.violations + s.violations,
    ended = g.ended OR s.result IS NOT NULL,
    winner = CASE WHEN s.result IS NULL THEN g.winner ELSE s.result.winner END,
    score = CASE WHEN s.result IS NULL THEN g.score ELSE s.result.score END,
    ended_at_time = CASE WHEN s.result IS NULL THEN g.ended_at_time ELSE s.result.at_time END
FROM (SELECT game, count(*) AS n, max(seq) AS last_seq, arg_max({'turn': turn, 'phase': phase}, seq) AS last,
             sum(coalesce(json_array_length(violations), 0)) AS violations,
             arg_max(CASE WHEN type = 'GameEnded'
                          THEN {'winner': payload ->> 'winner', 'score': (payload -> 'score')::JSON,
                                'at_time': ends_at_time(payload)} END, seq)
                 FILTER (WHERE type = 'GameEnded') AS result
      FROM batch_events WHERE game IS NOT NULL AND type <> 'GameCreated' AND topic LIKE 'rollcall:%'
      GROUP BY game) s
WHERE g.game = s.game;
