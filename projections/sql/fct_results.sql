-- Dumped as results: One row per player per tournament game, and one per bye.
-- Columns:
--   slug: The tournament's key: its name in lower case, other characters runs of one hyphen.
--   tournament: Tournament name.
--   round: Tournament round.
--   table_no: Table number.
--   game: Game id (the header's `game`).
--   player: Player id in the game (p1, p2).
--   seat: Seat in the game: 1 for p1, 2 for p2.
--   name: The player's name (standings are by name).
--   faction: The player's faction.
--   opponent: The opponent's name.
--   opponent_faction: The opponent's faction.
--   score: The player's victory points (from `GameEnded`).
--   opponent_score: The opponent's victory points (from `GameEnded`).
--   result: W, D or L for the player (B: a bye; empty while the game is on).
--   ended_at_time: Whether the game ended at time (time was called: `GameEnded` reason `time`).
--   tournament_points: Tournament points.
-- One row per player per game of a tournament (and one per bye: result 'B', no game): the player
-- (id and seat in the game, name, faction), the opponent, both victory points (GameEnded's score), the result
-- W / D / L from GameEnded's winner (NULL while the game is on) and the tournament points it earns. Games a
-- re-pairing withdrew are left out; byes are those awarded and those of each round's current pairing.
-- results_seen(held): the same as a viewer sees the games (games_seen: a game a broadcast delay keeps behind
-- is as it stood after the last seq shown, so one that ended within the delay is still on).
CREATE OR REPLACE MACRO results_seen(held) AS TABLE
WITH games AS (
    SELECT t.slug, t.tournament, g.game, g.round, g.table_no, g.ended, g.winner, g.score, g.ended_at_time,
           t.win_points, t.draw_points, t.loss_points
    FROM games_seen(held) g
    JOIN dim_tournaments t ON t.slug = name_slug(g.tournament)
    WHERE g.game NOT IN (SELECT game FROM dim_withdrawn_games)
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
           s.ended AND s.ended_at_time AS ended_at_time, s.win_points, s.draw_points, s.loss_points
    FROM sides s JOIN sides o ON o.game = s.game AND o.player <> s.player
)
SELECT slug, tournament, round, table_no, game, player, seat, name, faction, opponent, opponent_faction, score,
       opponent_score, result, ended_at_time,
       CASE result WHEN 'W' THEN win_points WHEN 'D' THEN draw_points WHEN 'L' THEN loss_points END
           AS tournament_points
FROM played
UNION ALL
SELECT t.slug, t.tournament, b.round, NULL, NULL, NULL, NULL, b.player, b.faction, NULL, NULL, NULL, NULL, 'B',
       false, t.bye_points
FROM (
    SELECT name_slug(data ->> 'tournament') AS slug,
           (data ->> 'round')::BIGINT AS round, data ->> 'player' AS player, data ->> 'faction' AS faction
    FROM fct_tournament_events WHERE topic = 'rollcall-tournament:ByeAwarded'
    UNION
    SELECT p.slug, p.round, p.player, r.faction
    FROM fct_pairings p LEFT JOIN dim_tournament_players r USING (slug, player)
    WHERE p.current AND p.game IS NULL AND p.pairing IS NOT NULL  -- the byes of pairings made here
) b
JOIN dim_tournaments t USING (slug);

CREATE OR REPLACE VIEW fct_results AS SELECT * FROM results_seen([]);
