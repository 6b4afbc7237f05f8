-- One row per player per game of a tournament (and one per bye: result 'B', no game): the player
-- (id and seat in the game, name, faction), the opponent, both victory points (GameEnded's score), the result
-- W / D / L from GameEnded's winner (NULL while the game is on) and the tournament points it earns.
CREATE OR REPLACE VIEW fct_results AS
WITH games AS (
    SELECT t.slug, t.tournament, g.game, g.round, g.table_no, g.ended, g.winner, g.score,
           t.win_points, t.draw_points, t.loss_points
    FROM dim_games g
    JOIN dim_tournaments t ON t.slug = trim(regexp_replace(lower(g.tournament), '[^a-z0-9]+', '-', 'g'), '-')
), sides AS (
    SELECT g.*, p.player, p.seat, coalesce(p.name, p.player) AS name, p.faction
    FROM games g JOIN dim_players p USING (game)
), played AS (
    SELECT s.slug, s.tournament, s.round, s.table_no, s.game, s.player, s.seat, s.name, s.faction,
           o.name AS opponent, o.faction AS opponent_faction,
           TRY_CAST(json_extract_string(s.score, '$."' || s.player || '"') AS BIGINT) AS score,
           TRY_CAST(json_extract_string(s.score, '$."' || o.player || '"') AS BIGINT) AS opponent_score,
           CASE WHEN NOT s.ended THEN NULL WHEN s.winner IS NULL THEN 'D' WHEN s.winner = s.player THEN 'W'
                ELSE 'L' END AS result,
           s.win_points, s.draw_points, s.loss_points
    FROM sides s JOIN sides o ON o.game = s.game AND o.player <> s.player
)
SELECT slug, tournament, round, table_no, game, player, seat, name, faction, opponent, opponent_faction, score,
       opponent_score, result,
       CASE result WHEN 'W' THEN win_points WHEN 'D' THEN draw_points WHEN 'L' THEN loss_points END
           AS tournament_points
FROM played
UNION ALL
SELECT t.slug, t.tournament, (e.data ->> 'round')::BIGINT, NULL, NULL, NULL, NULL, e.data ->> 'player',
       e.data ->> 'faction', NULL, NULL, NULL, NULL, 'B', t.bye_points
FROM fct_tournament_events e
JOIN dim_tournaments t ON t.slug = trim(regexp_replace(lower(e.data ->> 'tournament'), '[^a-z0-9]+', '-', 'g'), '-')
WHERE e.topic = 'rollcall-tournament:ByeAwarded';
