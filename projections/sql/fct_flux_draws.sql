-- Dumped as flux_draws: One row per Flux card drawn in The 9th Age.
-- Columns:
--   game: Game id (the header's `game`).
--   seq: Seq of the event in its game (1, 2, …).
--   turn: Game turn (Claustrophobia: round of the game).
--   player: Player id in the game (p1, p2).
--   card: The card drawn.
--   magic_dice: Magic dice the Flux card gives each player.
--   veil_tokens: Veil tokens the Flux card gives.
--   miscast_modifier: Miscast modifier of the Flux card.
--   source: `physical` (entered from real dice or cards) or `digital` (drawn by Rollcall).
-- The 9th Age Flux cards drawn, for whose magic phase, with what they gave.
CREATE OR REPLACE VIEW fct_flux_draws AS
SELECT e.game, e.seq, e.turn,
       (SELECT s.payload ->> 'active' FROM fct_events s
        WHERE s.game = e.game AND s.seq < e.seq AND s.type IN (SELECT type FROM dim_facts WHERE fact = 'magic_phases') ORDER BY s.seq DESC LIMIT 1) AS player,
       e.payload ->> 'card' AS card, (e.payload ->> 'magic_dice')::INTEGER AS magic_dice,
       (e.payload ->> 'veil_tokens')::INTEGER AS veil_tokens, (e.payload ->> 'miscast_modifier')::INTEGER AS miscast_modifier,
       coalesce(e.payload ->> 'source', 'physical') AS source
FROM fct_events e WHERE NOT e.taken_back AND e.type IN (SELECT type FROM dim_facts WHERE fact = 'flux_draws');
