-- First-player advantage per system in the scope ($games, $tournament). The first player of a game is the player named by its
-- first event that names one (stat_games: the first activation in Tornscape, the first casting roll in The
-- 9th Age, the first initiative roll in Claustrophobia). Of the ended games with a winner: how many the
-- first player won, the rate with its 95% Wilson interval, and a two-sided test against one half.
WITH games AS (
    SELECT g.system, g.winner, f.first_player
    FROM stat_scoped('dim_games', $games, $tournament) g
    JOIN stat_games f ON f.game = g.game WHERE g.ended
)
SELECT system, count(*) AS games, count(winner) AS decided, count(*) - count(winner) AS draws,
       count(*) FILTER (WHERE winner = first_player) AS first_wins,
       first_wins / nullif(decided, 0) AS rate, stat_wilson_low(first_wins, decided) AS ci_low,
       stat_wilson_high(first_wins, decided) AS ci_high,
       stat_z_p(first_wins, decided * 0.5, decided * 0.25) AS p_value,
       CASE WHEN decided < 10 THEN 'too few to tell'
            WHEN stat_z_p(first_wins, decided * 0.5, decided * 0.25) >= 0.05 THEN 'no clear advantage'
            WHEN first_wins > decided * 0.5 THEN 'the first player is favoured'
            ELSE 'the second player is favoured' END AS verdict
FROM games GROUP BY system ORDER BY system;
