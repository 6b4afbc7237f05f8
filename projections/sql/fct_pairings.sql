-- The pairings of created tournaments' rounds (`rollcall tournament pair`): one row per table of each pairing
-- (p1 as `player`, p2 as `opponent`, as seated in the game) and one for the bye (no table, no game). A round
-- paired again has a later `pairing`; `current` marks the round's latest.
CREATE OR REPLACE VIEW fct_pairings AS
WITH paired AS (
    SELECT trim(regexp_replace(lower(data ->> 'tournament'), '[^a-z0-9]+', '-', 'g'), '-') AS slug,
           data ->> 'tournament' AS tournament, (data ->> 'round')::BIGINT AS round,
           (data ->> 'pairing')::BIGINT AS pairing, data ->> 'scenario' AS scenario, data
    FROM fct_tournament_events WHERE topic = 'rollcall-tournament:RoundPaired'
), latest AS (
    SELECT *, pairing = max(pairing) OVER (PARTITION BY slug, round) AS current FROM paired
)
SELECT l.slug, l.tournament, l.round, l.pairing, l.current, (t ->> 'table')::BIGINT AS table_no, t ->> 'game' AS game,
       t -> 'players' -> 0 ->> 'name' AS player, t -> 'players' -> 0 ->> 'faction' AS faction,
       t -> 'players' -> 1 ->> 'name' AS opponent, t -> 'players' -> 1 ->> 'faction' AS opponent_faction, l.scenario
FROM latest l, unnest(json_extract(l.data, '$.tables[*]')) AS u(t)
UNION ALL
SELECT l.slug, l.tournament, l.round, l.pairing, l.current, NULL, NULL, l.data ->> 'bye', r.faction, NULL, NULL,
       l.scenario
FROM latest l LEFT JOIN dim_tournament_players r ON r.slug = l.slug AND r.player = l.data ->> 'bye'
WHERE l.data ->> 'bye' IS NOT NULL;
