-- The two players of each new game, in their seats.
-- when: GameCreated
INSERT INTO dim_players
SELECT game, p.id, seat, p.name, p.faction
FROM (SELECT game, json_transform(unnest(h.players), '{"id": "VARCHAR", "name": "VARCHAR", "faction": "VARCHAR"}') AS p,
             generate_subscripts(h.players, 1) AS seat
      FROM batch_headers);
