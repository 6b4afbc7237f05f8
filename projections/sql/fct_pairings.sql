-- Dumped as pairings: One row per table (and bye) of every pairing of a tournament round, and per game of a round whose games came in without a pairing.
-- Columns:
--   slug: The tournament's key: its name in lower case, other characters runs of one hyphen.
--   tournament: Tournament name.
--   round: Tournament round.
--   pairing: Pairing number within the round (a round paired again has a later one); empty for a round whose games came in without a pairing in Rollcall (imported, recorded elsewhere, results alone).
--   current: Whether this is the round's latest pairing.
--   table_no: Table number.
--   game: Game id (the header's `game`).
--   player: Name of the player in seat p1 (the bye's player on the bye row).
--   faction: The player's faction.
--   opponent: Name of the player in seat p2.
--   opponent_faction: Faction of the player in seat p2.
--   scenario: Scenario shipped with Rollcall that set up the round's games (empty: a setup given).
-- The pairings of every tournament round: one row per table (p1 as `player`, p2 as `opponent`, as seated in
-- the game) and one for the bye (no table, no game). A round paired in Rollcall (`rollcall tournament pair`)
-- has its pairings, a round paired again a later `pairing`, and `current` marks the round's latest. A round no
-- pairing here made (its games imported, recorded elsewhere, results alone, simulated) is the tables of its
-- games and the byes awarded in it, without a `pairing` number. A team round's tables are those its matches'
-- matchups (MatchupsEntered) gave the pairing, and each player of its bye team a bye row.
CREATE OR REPLACE VIEW fct_pairings AS
WITH paired AS (
    SELECT name_slug(data ->> 'tournament') AS slug,
           data ->> 'tournament' AS tournament, (data ->> 'round')::BIGINT AS round,
           (data ->> 'pairing')::BIGINT AS pairing, data ->> 'scenario' AS scenario, data
    FROM fct_tournament_events WHERE topic = 'rollcall-tournament:RoundPaired'
), latest AS (
    SELECT *, pairing = max(pairing) OVER (PARTITION BY slug, round) AS current FROM paired
), matchups AS (  -- a team round's tables, as the captains' matchups of each match entered them
    SELECT name_slug(data ->> 'tournament') AS slug, (data ->> 'round')::BIGINT AS round,
           (data ->> 'pairing')::BIGINT AS pairing, data
    FROM fct_tournament_events WHERE topic = 'rollcall-tournament:MatchupsEntered'
), team_byes AS (
    SELECT slug, tournament, round, pairing, current, scenario,
           unnest(from_json(data -> 'bye_players', '["VARCHAR"]')) AS player
    FROM latest WHERE (data -> 'bye_players') IS NOT NULL
), played AS (
    SELECT name_slug(g.tournament) AS slug, g.tournament, g.round,
           g.table_no, g.game
    FROM dim_games g
    WHERE g.tournament IS NOT NULL AND g.round IS NOT NULL AND g.game NOT IN (SELECT game FROM dim_withdrawn_games)
), awarded AS (
    SELECT name_slug(data ->> 'tournament') AS slug,
           data ->> 'tournament' AS tournament, (data ->> 'round')::BIGINT AS round, data ->> 'player' AS player,
           data ->> 'faction' AS faction
    FROM fct_tournament_events WHERE topic = 'rollcall-tournament:ByeAwarded'
)
SELECT l.slug, l.tournament, l.round, l.pairing, l.current, (t ->> 'table')::BIGINT AS table_no, t ->> 'game' AS game,
       t -> 'players' -> 0 ->> 'name' AS player, t -> 'players' -> 0 ->> 'faction' AS faction,
       t -> 'players' -> 1 ->> 'name' AS opponent, t -> 'players' -> 1 ->> 'faction' AS opponent_faction, l.scenario
FROM latest l, unnest(json_extract(l.data, '$.tables[*]')) AS u(t)
UNION ALL
SELECT l.slug, l.tournament, l.round, l.pairing, l.current, (t ->> 'table')::BIGINT, t ->> 'game',
       t -> 'players' -> 0 ->> 'name', t -> 'players' -> 0 ->> 'faction',
       t -> 'players' -> 1 ->> 'name', t -> 'players' -> 1 ->> 'faction', coalesce(m.data ->> 'scenario', l.scenario)
FROM latest l JOIN matchups m ON m.slug = l.slug AND m.round = l.round AND m.pairing = l.pairing,
     unnest(json_extract(m.data, '$.tables[*]')) AS u(t)
UNION ALL
SELECT l.slug, l.tournament, l.round, l.pairing, l.current, NULL, NULL, l.data ->> 'bye', r.faction, NULL, NULL,
       l.scenario
FROM latest l LEFT JOIN dim_tournament_players r ON r.slug = l.slug AND r.player = l.data ->> 'bye'
WHERE l.data ->> 'bye' IS NOT NULL
UNION ALL  -- a team round's bye team: each of its players has the bye
SELECT b.slug, b.tournament, b.round, b.pairing, b.current, NULL, NULL, b.player, r.faction, NULL, NULL, b.scenario
FROM team_byes b LEFT JOIN dim_tournament_players r ON r.slug = b.slug AND r.player = b.player
UNION ALL
SELECT g.slug, g.tournament, g.round, NULL, TRUE, g.table_no, g.game, coalesce(a.name, a.player), a.faction,
       coalesce(b.name, b.player), b.faction, NULL
FROM played g
JOIN dim_players a ON a.game = g.game AND a.seat = 1
JOIN dim_players b ON b.game = g.game AND b.seat = 2
WHERE NOT EXISTS (SELECT 1 FROM paired p WHERE p.slug = g.slug AND p.round = g.round)
UNION ALL
SELECT b.slug, b.tournament, b.round, NULL, TRUE, NULL, NULL, b.player, b.faction, NULL, NULL, NULL
FROM awarded b
WHERE NOT EXISTS (SELECT 1 FROM paired p WHERE p.slug = b.slug AND p.round = b.round);
