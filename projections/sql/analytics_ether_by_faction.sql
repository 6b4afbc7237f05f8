-- Ether harvested by faction in the scope ($games, $tournament) (stat_ether, from VortexExplored): explorations, successes,
-- ether gained, and per game played with vortices on the board (a setup listing vortices).
WITH played AS (
    SELECT p.faction, count(*) AS games FROM stat_scoped('dim_players', $games, $tournament) p
    JOIN stat_setups g ON g.game = p.game
    WHERE g.vortices > 0 GROUP BY p.faction
), explored AS (
    SELECT p.faction, sum(e.explorations) AS explorations, sum(e.successes) AS successes, sum(e.ether) AS ether
    FROM stat_scoped('stat_ether', $games, $tournament) e
    JOIN dim_players p ON p.game = e.game AND p.player = e.player GROUP BY p.faction
)
SELECT p.faction, p.games, coalesce(x.explorations, 0) AS explorations, coalesce(x.successes, 0) AS successes,
       coalesce(x.ether, 0) AS ether, coalesce(x.ether, 0) / p.games AS ether_per_game
FROM played p LEFT JOIN explored x USING (faction) ORDER BY ether_per_game DESC, p.faction;
