-- The faction-versus-faction matrix of the scope ($games, $tournament) (ended games, mirror matches left out): for each
-- faction and opponent, games, wins, draws, losses and the win rate with its 95% Wilson interval.
WITH results AS (
    SELECT r.faction, r.opponent, r.result FROM stat_scoped('stat_results', $games, $tournament) r
    WHERE r.faction IS DISTINCT FROM r.opponent
)
SELECT faction, opponent, count(*) AS games, count(*) FILTER (WHERE result = 'win') AS wins,
       count(*) FILTER (WHERE result = 'draw') AS draws, count(*) FILTER (WHERE result = 'loss') AS losses,
       wins / games AS win_rate, stat_wilson_low(wins, games) AS ci_low, stat_wilson_high(wins, games) AS ci_high
FROM results GROUP BY faction, opponent ORDER BY faction, opponent;
