-- when: GameCreated
INSERT INTO dim_players
SELECT game, p.id, seat, p.name, p.faction
FROM (SELECT game, json_transform(unnest(players), '{"id": "VARCHAR", "name": "VARCHAR", "faction": "VARCHAR"}') AS p,
             generate_subscripts(players, 1) AS seat
      FROM new_headers);
