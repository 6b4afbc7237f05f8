-- The games of a scope: the games $games if any, else those of tournament $tournament, else every game.
SELECT game FROM dim_games
WHERE CASE WHEN len($games::VARCHAR[]) > 0 THEN list_contains($games::VARCHAR[], game)
           WHEN $tournament::VARCHAR IS NOT NULL THEN tournament = $tournament::VARCHAR
           ELSE true END
ORDER BY round NULLS LAST, table_no NULLS LAST, game;
