-- Time per turn in the scope ($games, $tournament), from the events carrying `at` (stat_turns): per turn number, the games
-- timed, the mean, median and longest seconds.
WITH scope AS (SELECT game FROM stat_scope($games, $tournament))
SELECT t.turn, count(*) AS games, avg(t.seconds) AS mean_seconds, median(t.seconds) AS median_seconds,
       max(t.seconds) AS max_seconds
FROM stat_turns t SEMI JOIN scope s ON s.game = t.game
GROUP BY t.turn ORDER BY t.turn;
