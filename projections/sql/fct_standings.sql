-- Dumped as standings: One row per player of every tournament, ranked by points per result alone (3/1/0, or the tournament's points), whatever its format; tournament_standings ranks by the tournament's format.
-- Columns:
--   rank: Rank in the standings (players tied on every tie-break share one).
--   slug: The tournament's key: its name in lower case, other characters runs of one hyphen.
--   tournament: Tournament name.
--   player: The player's name.
--   faction: The player's faction.
--   games: Games finished (a bye is not a game).
--   wins: Games won.
--   draws: Games drawn.
--   losses: Games lost.
--   byes: Byes: rounds without a game, worth the points of a bye.
--   tournament_points: Tournament points.
--   vp_for: Victory points scored.
--   vp_against: Victory points scored against the player.
--   vp_diff: Victory points for minus against.
--   sos: Strength of schedule: the tournament points of every opponent played.
-- Per tournament and player (by name): games finished, wins, draws, losses, byes, tournament
-- points, victory points for / against / difference, strength of schedule (the sum of the
-- tournament points of every opponent played, once per game) and the rank. Tie-breaks, in order:
-- tournament points, VP difference, VP for, strength of schedule; players equal on all four share
-- a rank (listed by name). standings_seen(held): the same from the results a viewer sees (results_seen).
CREATE OR REPLACE MACRO standings_seen(held) AS TABLE
WITH per AS (
    SELECT slug, any_value(tournament) AS tournament, name AS player,
           arg_max(faction, coalesce(round, 0)) AS faction,
           count(*) FILTER (result IN ('W', 'D', 'L')) AS games,
           count(*) FILTER (result = 'W') AS wins, count(*) FILTER (result = 'D') AS draws,
           count(*) FILTER (result = 'L') AS losses, count(*) FILTER (result = 'B') AS byes,
           coalesce(sum(tournament_points), 0) AS tournament_points,
           coalesce(sum(score) FILTER (result IN ('W', 'D', 'L')), 0) AS vp_for,
           coalesce(sum(opponent_score) FILTER (result IN ('W', 'D', 'L')), 0) AS vp_against
    FROM results_seen(held) GROUP BY slug, name
), schedule AS (
    SELECT r.slug, r.name AS player, sum(o.tournament_points) AS sos
    FROM results_seen(held) r JOIN per o ON o.slug = r.slug AND o.player = r.opponent
    WHERE r.result IN ('W', 'D', 'L')
    GROUP BY r.slug, r.name
), scored AS (
    SELECT p.*, p.vp_for - p.vp_against AS vp_diff, coalesce(s.sos, 0) AS sos
    FROM per p LEFT JOIN schedule s USING (slug, player)
)
SELECT rank() OVER (PARTITION BY slug ORDER BY tournament_points DESC, vp_diff DESC, vp_for DESC, sos DESC) AS rank,
       slug, tournament, player, faction, games, wins, draws, losses, byes, tournament_points, vp_for, vp_against,
       vp_diff, sos
FROM scored;

CREATE OR REPLACE VIEW fct_standings AS SELECT * FROM standings_seen([]);
