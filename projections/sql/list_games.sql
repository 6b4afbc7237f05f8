-- Every projected game, in the order the games were recorded.
SELECT game, system, tournament, round, table_no, started, players, events, last_seq, turn, phase,
       violations, ended, winner, score
FROM dim_games
ORDER BY notification_id;
