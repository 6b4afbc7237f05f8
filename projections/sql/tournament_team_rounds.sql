-- The team matches and bye teams of one team tournament ($tournament: its name, in any case) as each round's latest
-- pairing made them: round, match (NULL on a bye's row), team, opponent (NULL: the bye team), entered (whether the
-- captains' matchups of the match are in).
WITH paired AS (
    SELECT (data ->> 'round')::BIGINT AS round, (data ->> 'pairing')::BIGINT AS pairing, data,
           row_number() OVER (PARTITION BY data ->> 'round' ORDER BY notification_id DESC) AS latest
    FROM fct_tournament_events
    WHERE topic = 'rollcall-tournament:RoundPaired' AND name_slug(data ->> 'tournament') = name_slug($tournament)
), entered AS (
    SELECT (data ->> 'round')::BIGINT AS round, (data ->> 'pairing')::BIGINT AS pairing,
           (data ->> 'match')::BIGINT AS match
    FROM fct_tournament_events
    WHERE topic = 'rollcall-tournament:MatchupsEntered' AND name_slug(data ->> 'tournament') = name_slug($tournament)
)
SELECT p.round, (m ->> 'match')::BIGINT AS match, m -> 'teams' ->> 0 AS team, m -> 'teams' ->> 1 AS opponent,
       EXISTS (SELECT 1 FROM entered e WHERE e.round = p.round AND e.pairing = p.pairing
                                         AND e.match = (m ->> 'match')::BIGINT) AS entered
FROM paired p, unnest(json_extract(p.data, '$.matches[*]')) AS u(m)
WHERE p.latest = 1
UNION ALL
SELECT p.round, NULL, p.data ->> 'bye_team', NULL, FALSE
FROM paired p
WHERE p.latest = 1 AND p.data ->> 'bye_team' IS NOT NULL
ORDER BY round, match NULLS LAST;
