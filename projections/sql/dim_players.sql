-- Dumped as players: One row per player of every game (two a game).
CREATE TABLE IF NOT EXISTS dim_players (
    game VARCHAR,  -- Game id (the header's `game`).
    player VARCHAR,  -- Player id in the game (p1, p2).
    seat INTEGER,  -- Seat in the game: 1 for p1, 2 for p2.
    name VARCHAR,  -- The player's name.
    faction VARCHAR  -- The player's faction.
);

-- The two players of each new game, in their seats.
-- when: GameCreated
INSERT INTO dim_players
SELECT game, p.id, seat, p.name, p.faction
FROM (SELECT game, json_transform(unnest(h.players), '{"id": "VARCHAR", "name": "VARCHAR", "faction": "VARCHAR"}') AS p,
             generate_subscripts(h.players, 1) AS seat
      FROM batch_headers);
