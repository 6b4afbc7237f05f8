-- The games of a scope (stat_scope: the games $games if any, else those of tournament $tournament, else every
-- game), by round and table.
SELECT g.game FROM dim_games g SEMI JOIN stat_scope($games, $tournament) s ON s.game = g.game
ORDER BY g.round NULLS LAST, g.table_no NULLS LAST, g.game
LIMIT $limit;
