-- The rounds whose time was started, of one tournament ($tournament: its name, in any case; NULL: of every
-- tournament): slug (the tournament's), round, seconds (its length), at (the instant it started, ISO), from each
-- round's RoundStarted (domain.round_time), in order of tournament and round.
SELECT c.data ->> 'slug' AS slug, (r.data ->> 'round')::BIGINT AS round, (r.data ->> 'seconds')::BIGINT AS seconds,
       r.data ->> 'at' AS at
FROM fct_tournament_events r
JOIN fct_tournament_events c ON c.tournament_id = r.tournament_id AND c.topic = 'rollcall-tournament:Created'
WHERE r.topic = 'rollcall-tournament:RoundStarted'
  AND ($tournament IS NULL OR c.data ->> 'slug' = name_slug($tournament))
ORDER BY slug, round;
