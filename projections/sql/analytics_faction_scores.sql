-- The ended games of the scope ($games, $tournament), once per player of a faction against another (mirror matches
-- left out): the faction, the game's tournament, the player's and the opponent's victory points, the result, and
-- whether the player (or the opponent) holds the secondary objective: what each game scores under its tournament's
-- format (projections/stats.py: faction_results' mean_score).
WITH results AS (
    SELECT r.game, r.player, r.faction, r.opponent, r.result FROM stat_scoped('stat_results', $games, $tournament) r
    WHERE r.faction IS DISTINCT FROM r.opponent
), ended AS (
    SELECT game, arg_max(payload ->> 'secondary', seq) AS secondary FROM fct_events WHERE type = 'GameEnded'
    GROUP BY game
)
SELECT r.game, r.faction, g.tournament, r.result,
       TRY_CAST(json_extract_string(g.score, '$."' || r.player || '"') AS BIGINT) AS vp,
       TRY_CAST(json_extract_string(g.score, '$."' || o.player || '"') AS BIGINT) AS opponent_vp,
       CASE WHEN e.secondary IS NULL THEN NULL WHEN e.secondary = r.player THEN 0 ELSE 1 END AS secondary
FROM results r
JOIN dim_games g ON g.game = r.game
JOIN dim_players o ON o.game = r.game AND o.player <> r.player
LEFT JOIN ended e ON e.game = r.game
ORDER BY r.game, r.player;
