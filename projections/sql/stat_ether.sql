CREATE TABLE IF NOT EXISTS stat_ether (
    game VARCHAR,
    player VARCHAR,
    explorations BIGINT,
    successes BIGINT,
    ether BIGINT
);

DELETE FROM stat_ether WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_ether
SELECT e.game, e.player, count(*), count(*) FILTER (WHERE (e.payload ->> 'success')::BOOLEAN),
       sum(coalesce((e.payload ->> 'ether_gained')::BIGINT, 0))
FROM stat_rows_of('fct_events', $few) e SEMI JOIN stat_touched t ON t.game = e.game
WHERE e.type IN (SELECT type FROM dim_facts WHERE fact = 'explorations') AND NOT e.taken_back GROUP BY e.game, e.player;
