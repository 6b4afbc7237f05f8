-- The faction-versus-faction matrix of the scope ($games, $tournament) (ended games, mirror matches left out): for each
-- faction and opponent, games, wins, draws, losses and the win rate with its 95% Wilson interval.
WITH scope AS (SELECT game FROM stat_scope($games, $tournament)),
results AS (
    SELECT p.faction, o.faction AS opponent,
           CASE WHEN g.winner = p.player THEN 'win' WHEN g.winner IS NULL THEN 'draw' ELSE 'loss' END AS result
    FROM dim_players p SEMI JOIN scope s ON s.game = p.game
    JOIN dim_games g ON g.game = p.game
    JOIN dim_players o ON o.game = p.game AND o.player <> p.player
    WHERE g.ended AND p.faction IS DISTINCT FROM o.faction
)
SELECT faction, opponent, count(*) AS games, count(*) FILTER (WHERE result = 'win') AS wins,
       count(*) FILTER (WHERE result = 'draw') AS draws, count(*) FILTER (WHERE result = 'loss') AS losses,
       wins / games AS win_rate, stat_wilson_low(wins, games) AS ci_low, stat_wilson_high(wins, games) AS ci_high
FROM results GROUP BY faction, opponent ORDER BY faction, opponent;
