-- Faction results in the scope ($games, $tournament), ended games only (a game ended without a winner is a draw): wins,
-- draws and losses against other factions, the win rate (wins / games) with its 95% Wilson interval;
-- mirror matches (both players of one faction) are counted apart and left out of the rate.
WITH results AS (
    SELECT r.game, r.faction, r.opponent, r.result FROM stat_scoped('stat_results', $games, $tournament) r
)
SELECT faction, count(*) FILTER (WHERE faction IS DISTINCT FROM opponent) AS games,
       count(*) FILTER (WHERE faction IS DISTINCT FROM opponent AND result = 'win') AS wins,
       count(*) FILTER (WHERE faction IS DISTINCT FROM opponent AND result = 'draw') AS draws,
       count(*) FILTER (WHERE faction IS DISTINCT FROM opponent AND result = 'loss') AS losses,
       count(DISTINCT game) FILTER (WHERE faction IS NOT DISTINCT FROM opponent) AS mirror_games,
       wins / nullif(games, 0) AS win_rate, stat_wilson_low(wins, games) AS ci_low, stat_wilson_high(wins, games) AS ci_high
FROM results GROUP BY faction ORDER BY win_rate DESC NULLS LAST, games DESC, faction;
