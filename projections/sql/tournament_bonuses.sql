-- The bonuses and penalties of one tournament ($tournament: its name, in any case), in the order given: round,
-- player, points (negative: a penalty), reason.
SELECT (b.data ->> 'round')::BIGINT AS round, b.data ->> 'player' AS player, (b.data ->> 'points')::BIGINT AS points,
       b.data ->> 'reason' AS reason
FROM fct_tournament_events b
JOIN fct_tournament_events c ON c.tournament_id = b.tournament_id AND c.topic = 'rollcall-tournament:Created'
WHERE b.topic = 'rollcall-tournament:BonusAwarded' AND c.data ->> 'slug' = name_slug($tournament)
ORDER BY b.notification_id;
