-- Dumped as tournaments: One row per tournament, created or only named by game headers.
-- Columns:
--   slug: The tournament's key: its name in lower case, other characters runs of one hyphen.
--   tournament: Tournament name.
--   system: Game system: the main alias of its rules pack (tornscape, t9a, claustrophobia).
--   created: Whether the tournament was created (false: only named by game headers).
--   planned_rounds: Rounds planned.
--   notes: The organiser's notes.
--   games: Games naming the tournament.
--   ended_games: Games that have ended.
--   rounds_played: Rounds played: rounds with games, every one of them ended (a round paired is not played yet).
--   last_round: Highest round of its games (paired or played).
--   win_points: Tournament points for a win.
--   draw_points: Tournament points for a draw.
--   loss_points: Tournament points for a loss.
--   bye_points: Tournament points for a bye.
--   notification_id: Position in the event store's log (orders everything written).
--   broadcast_delay: Seconds spectators without a key are kept behind each game (0: live).
-- Every tournament: those created (`rollcall tournament create`) and those only named by game
-- headers (less the games a re-pairing withdrew). `slug` is the tournament's key (domain.record.slug of its name: lower case, every run of
-- other characters than a-z and 0-9 one hyphen); points per result default to 3 / 1 / 0, a bye 3;
-- `broadcast_delay`: seconds spectators without a key are kept behind each game (0: live).
-- rounds_seen(held): each round of each tournament as a viewer sees its games (games_seen; [] for every game as
-- recorded), less the games a re-pairing withdrew: how many games it has and how many of them ended.
CREATE OR REPLACE MACRO rounds_seen(held) AS TABLE
SELECT name_slug(tournament) AS slug, round, count(*) AS games, count(*) FILTER (ended) AS ended
FROM games_seen(held)
WHERE tournament IS NOT NULL AND round IS NOT NULL AND game NOT IN (SELECT game FROM dim_withdrawn_games)
GROUP BY 1, 2;

CREATE OR REPLACE VIEW dim_tournaments AS
WITH created AS (
    SELECT data ->> 'slug' AS slug, data ->> 'name' AS tournament, data ->> 'system' AS system,
           TRY_CAST(data ->> 'rounds' AS BIGINT) AS planned_rounds, data ->> 'notes' AS notes,
           data -> 'points' AS points, notification_id
    FROM fct_tournament_events WHERE topic = 'rollcall-tournament:Created'
), delays AS (
    SELECT slug, arg_max((data ->> 'seconds')::BIGINT, notification_id) AS broadcast_delay
    FROM (SELECT t.notification_id, t.data, c.data ->> 'slug' AS slug
          FROM fct_tournament_events t JOIN fct_tournament_events c
            ON c.tournament_id = t.tournament_id AND c.topic = 'rollcall-tournament:Created'
          WHERE t.topic = 'rollcall-tournament:BroadcastDelaySet')
    GROUP BY slug
), named AS (
    SELECT name_slug(tournament) AS slug,
           arg_min(tournament, notification_id) AS tournament, arg_min(system, notification_id) AS system,
           min(notification_id) AS notification_id, count(*) AS games, count(*) FILTER (ended) AS ended_games,
           max(round) AS last_round
    FROM dim_games WHERE tournament IS NOT NULL AND game NOT IN (SELECT game FROM dim_withdrawn_games) GROUP BY 1
), played AS (
    SELECT slug, count(*) FILTER (WHERE ended = games) AS rounds_played
    FROM rounds_seen([]) GROUP BY slug
)
SELECT coalesce(c.slug, n.slug) AS slug, coalesce(c.tournament, n.tournament) AS tournament,
       coalesce(c.system, n.system) AS system, c.slug IS NOT NULL AS created, c.planned_rounds, c.notes,
       coalesce(n.games, 0) AS games, coalesce(n.ended_games, 0) AS ended_games, coalesce(p.rounds_played, 0) AS
       rounds_played, n.last_round,
       coalesce((c.points ->> 'win')::BIGINT, 3) AS win_points,
       coalesce((c.points ->> 'draw')::BIGINT, 1) AS draw_points,
       coalesce((c.points ->> 'loss')::BIGINT, 0) AS loss_points,
       coalesce((c.points ->> 'bye')::BIGINT, 3) AS bye_points,
       coalesce(c.notification_id, n.notification_id) AS notification_id,
       coalesce(d.broadcast_delay, 0) AS broadcast_delay
FROM created c FULL JOIN named n ON n.slug = c.slug LEFT JOIN delays d ON d.slug = c.slug
LEFT JOIN played p ON p.slug = coalesce(c.slug, n.slug);
