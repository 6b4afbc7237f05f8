-- The two players of each new game, in their seats.
-- when: GameCreated
INSERT INTO dim_players
SELECT game, p.id, seat, p.name, p.faction
FROM (SELECT game, json_transform(unnest(players), '{"id": "VARCHAR", "name": "VARCHAR", "faction": "VARCHAR"}') AS p,
             generate_subscripts(players, 1) AS seat
      FROM (SELECT game, json_transform(payload, '{"players": "JSON[]"}').players AS players
            FROM batch_events WHERE type = 'GameCreated' AND game IS NOT NULL));
