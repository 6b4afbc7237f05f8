-- Time per turn in the scope ($games, $tournament), from the events carrying `at` (stat_turns): per turn number, the games
-- timed, the mean, median and longest seconds.
SELECT t.turn, count(*) AS games, avg(t.seconds) AS mean_seconds, median(t.seconds) AS median_seconds,
       max(t.seconds) AS max_seconds
FROM stat_scoped('stat_turns', $games, $tournament) t
GROUP BY t.turn ORDER BY t.turn;
