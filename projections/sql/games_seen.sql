-- Whether a GameEnded's payload ends its game at time (reason `time`: time was called; domain.systems.fields.AT_TIME).
CREATE OR REPLACE MACRO ends_at_time(payload) AS coalesce(payload ->> 'reason' = 'time', false);

-- The games as a viewer sees them (projections/visibility.py): dim_games, each game of `held` (a list of
-- {game, seq}: the games a broadcast delay keeps behind, with the last seq shown of each) as it stood after
-- that seq: its events, last seq, turn, phase, violations and result then (a game that ended later is on).
-- With nothing held (a privileged viewer, or no game within a delay) it is dim_games as it is, read once.
CREATE OR REPLACE MACRO games_seen(held) AS TABLE
SELECT * FROM dim_games WHERE coalesce(len(held), 0) = 0
UNION ALL BY NAME
(WITH kept AS (
    SELECT unnest(held::STRUCT(game VARCHAR, seq BIGINT)[], recursive := true)
), later AS (  -- what the viewer may not see yet of each game kept behind
    SELECT k.game, k.seq AS upto, count(e.seq) AS events,
           coalesce(sum(coalesce(json_array_length(e.violations), 0)), 0) AS violations
    FROM kept k LEFT JOIN fct_events e ON e.game = k.game AND e.seq > k.seq
    GROUP BY k.game, k.seq
), shown AS (  -- the turn and phase after the last event shown
    SELECT k.game, e.turn, e.phase FROM kept k JOIN fct_events e ON e.game = k.game AND e.seq = k.seq
), ended AS (  -- the result, if the game ended by then
    SELECT k.game, arg_max({'winner': e.payload ->> 'winner', 'score': (e.payload -> 'score')::JSON,
                            'at_time': ends_at_time(e.payload)}, e.seq) AS result
    FROM kept k JOIN fct_events e ON e.game = k.game AND e.seq <= k.seq AND e.type = 'GameEnded'
    GROUP BY k.game
)
SELECT g.* REPLACE (
    CASE WHEN l.game IS NULL THEN g.events ELSE g.events - l.events END AS events,
    CASE WHEN l.game IS NULL THEN g.last_seq ELSE least(g.last_seq, l.upto) END AS last_seq,
    CASE WHEN l.game IS NULL THEN g.turn ELSE coalesce(s.turn, 0) END AS turn,
    CASE WHEN l.game IS NULL THEN g.phase ELSE s.phase END AS phase,
    CASE WHEN l.game IS NULL THEN g.violations ELSE g.violations - l.violations END AS violations,
    CASE WHEN l.game IS NULL THEN g.ended ELSE x.result IS NOT NULL END AS ended,
    CASE WHEN l.game IS NULL THEN g.winner ELSE x.result.winner END AS winner,
    CASE WHEN l.game IS NULL THEN g.score ELSE x.result.score END AS score,
    CASE WHEN l.game IS NULL THEN g.ended_at_time ELSE coalesce(x.result.at_time, false) END AS ended_at_time)
FROM dim_games g
LEFT JOIN later l ON l.game = g.game
LEFT JOIN shown s ON s.game = g.game
LEFT JOIN ended x ON x.game = g.game
WHERE coalesce(len(held), 0) > 0);
