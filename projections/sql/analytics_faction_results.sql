-- Faction results in the scope ($games, $tournament), ended games only (a game ended without a winner is a draw): wins,
-- draws and losses against other factions, the win rate (wins / games) with its 95% Wilson interval;
-- mirror matches (both players of one faction) are counted apart and left out of the rate.
WITH scope AS (SELECT game FROM stat_scope($games, $tournament)),
results AS (
    SELECT p.game, p.faction, o.faction AS opponent,
           CASE WHEN g.winner = p.player THEN 'win' WHEN g.winner IS NULL THEN 'draw' ELSE 'loss' END AS result
    FROM dim_players p SEMI JOIN scope s ON s.game = p.game
    JOIN dim_games g ON g.game = p.game
    JOIN dim_players o ON o.game = p.game AND o.player <> p.player
    WHERE g.ended
)
SELECT faction, count(*) FILTER (WHERE faction IS DISTINCT FROM opponent) AS games,
       count(*) FILTER (WHERE faction IS DISTINCT FROM opponent AND result = 'win') AS wins,
       count(*) FILTER (WHERE faction IS DISTINCT FROM opponent AND result = 'draw') AS draws,
       count(*) FILTER (WHERE faction IS DISTINCT FROM opponent AND result = 'loss') AS losses,
       count(DISTINCT game) FILTER (WHERE faction IS NOT DISTINCT FROM opponent) AS mirror_games,
       wins / nullif(games, 0) AS win_rate, stat_wilson_low(wins, games) AS ci_low, stat_wilson_high(wins, games) AS ci_high
FROM results GROUP BY faction ORDER BY win_rate DESC NULLS LAST, games DESC, faction;
