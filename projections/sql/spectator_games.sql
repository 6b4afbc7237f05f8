-- Every game as a spectator sees it ($held: projections/visibility.py), for the broadcast's snapshots
-- (projections/spectators.py): where it is played, how far it is shown (last_seq) and whether it has ended then.
-- A game a re-pairing withdrew is left out. The header is read only for the games named in $games.
SELECT g.game, g.system, g.tournament, name_slug(g.tournament) AS slug, g.round, g.table_no, g.last_seq, g.ended,
       g.score, CASE WHEN list_contains($games, g.game) THEN g.header END AS header
FROM games_seen($held) g
WHERE g.game NOT IN (SELECT game FROM dim_withdrawn_games)
ORDER BY g.notification_id;
