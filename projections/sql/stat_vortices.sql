-- moves: changes of position; hexes: the hex distances of the moves, summed; net_hexes: from the setup
-- position to the last one.
CREATE TABLE IF NOT EXISTS stat_vortices (
    game VARCHAR,
    vortex VARCHAR,
    moves BIGINT,
    hexes BIGINT,
    net_hexes BIGINT,
    ether_start BIGINT,
    ether_end BIGINT,
    allegiance VARCHAR,
    removed BOOLEAN
);

DELETE FROM stat_vortices WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_vortices
WITH states AS (
    SELECT v.game, v.vortex, v.valid_from_seq, CAST(v.pos AS INTEGER[]) AS pos, v.ether, v.allegiance, v.removed
    FROM stat_rows_of('fct_vortex_states', $few) v SEMI JOIN stat_touched t ON t.game = v.game
), steps AS (
    SELECT *, lag(pos) OVER (PARTITION BY game, vortex ORDER BY valid_from_seq) AS prev,
           first(pos) OVER (PARTITION BY game, vortex ORDER BY valid_from_seq) AS start,
           last(pos) OVER (PARTITION BY game, vortex ORDER BY valid_from_seq
                           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS finish
    FROM states
)
SELECT game, vortex, count(*) FILTER (WHERE prev IS NOT NULL AND pos <> prev),
       coalesce(sum((abs(pos[1] - prev[1]) + abs(pos[2] - prev[2]) + abs(pos[1] + pos[2] - prev[1] - prev[2])) // 2)
                FILTER (WHERE prev IS NOT NULL), 0),
       any_value((abs(finish[1] - start[1]) + abs(finish[2] - start[2]) + abs(finish[1] + finish[2] - start[1] - start[2])) // 2),
       arg_min(ether, valid_from_seq), arg_max(ether, valid_from_seq), arg_max_null(allegiance, valid_from_seq), bool_or(removed)
FROM steps GROUP BY game, vortex;
