-- The tournaments with their numbers of games (the scopes the Analytics page offers).
SELECT tournament, count(*) AS games, min(system) AS system FROM dim_games
WHERE tournament IS NOT NULL GROUP BY tournament ORDER BY tournament;
