-- Dumped as card_draws: One row per card drawn (Tornscape ether phenomena and other decks).
-- Columns:
--   game: Game id (the header's `game`).
--   seq: Seq of the event in its game (1, 2, …).
--   turn: Game turn (Claustrophobia: round of the game).
--   deck: The deck drawn from.
--   card: The card drawn.
--   effect: `positive` or `negative` (ether phenomena).
--   vortex: Vortex id.
--   model: Model id.
--   player: Player id of the player who drew.
--   relation: The card's relation as the Ether Phenomena Table derives it.
--   trigger: What made the card be drawn (explore_success, explore_failure, entering).
--   shuffled: Whether the deck was shuffled after this card.
--   source: `physical` (entered from real dice or cards) or `digital` (drawn by Rollcall).
-- Every card drawn: ether phenomenon cards (with the vortex, model, relation, trigger and effect the
-- table asked for) and the common CardDrawn of any deck.
CREATE OR REPLACE VIEW fct_card_draws AS
SELECT e.game, e.seq, e.turn, f.kind AS deck, e.payload ->> 'card' AS card, e.payload ->> 'effect' AS effect,
       e.payload ->> 'vortex' AS vortex, e.payload ->> 'model' AS model, e.player,
       e.payload ->> 'relation' AS relation, e.payload ->> 'trigger' AS trigger,
       (e.payload ->> 'shuffled')::BOOLEAN AS shuffled, coalesce(e.payload ->> 'source', 'physical') AS source
FROM fct_events e JOIN dim_facts f ON f.type = e.type AND f.fact = 'phenomena' WHERE NOT e.taken_back
UNION ALL
SELECT e.game, e.seq, e.turn, e.payload ->> 'deck', e.payload ->> 'card', NULL, NULL, NULL, e.player, NULL, NULL,
       NULL, coalesce(e.payload ->> 'source', 'physical')
FROM fct_events e WHERE NOT e.taken_back AND e.type = 'CardDrawn';
