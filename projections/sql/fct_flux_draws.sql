-- The 9th Age Flux cards drawn, for whose magic phase, with what they gave.
CREATE OR REPLACE VIEW fct_flux_draws AS
SELECT e.game, e.seq, e.turn,
       (SELECT s.payload ->> 'active' FROM fct_events s
        WHERE s.game = e.game AND s.seq < e.seq AND s.type = 'MagicPhaseStarted' ORDER BY s.seq DESC LIMIT 1) AS player,
       e.payload ->> 'card' AS card, (e.payload ->> 'magic_dice')::INTEGER AS magic_dice,
       (e.payload ->> 'veil_tokens')::INTEGER AS veil_tokens, (e.payload ->> 'miscast_modifier')::INTEGER AS miscast_modifier,
       coalesce(e.payload ->> 'source', 'physical') AS source
FROM fct_events e WHERE NOT e.taken_back AND e.type = 'FluxCardDrawn';
