-- The format of one tournament ($tournament: its name, in any case): `created`, the Created event's data (its
-- `format` and `points`), and `changed`, the last FormatChanged's format (NULL: never changed). No row: the
-- tournament was never created (only named by games): the default format.
SELECT c.data AS created,
       (SELECT f.data -> 'format' FROM fct_tournament_events f
        WHERE f.tournament_id = c.tournament_id AND f.topic = 'rollcall-tournament:FormatChanged'
        ORDER BY f.notification_id DESC LIMIT 1) AS changed
FROM fct_tournament_events c
WHERE c.topic = 'rollcall-tournament:Created' AND c.data ->> 'slug' = name_slug($tournament);
