-- Every card drawn: ether phenomenon cards (with the vortex, model, relation, trigger and effect the
-- table asked for) and the common CardDrawn of any deck.
CREATE OR REPLACE VIEW fct_card_draws AS
SELECT e.game, e.seq, e.turn, 'phenomena' AS deck, e.payload ->> 'card' AS card, e.payload ->> 'effect' AS effect,
       e.payload ->> 'vortex' AS vortex, e.payload ->> 'model' AS model, e.player,
       e.payload ->> 'relation' AS relation, e.payload ->> 'trigger' AS trigger,
       (e.payload ->> 'shuffled')::BOOLEAN AS shuffled, coalesce(e.payload ->> 'source', 'physical') AS source
FROM fct_events e WHERE NOT e.taken_back AND e.type = 'PhenomenonDrawn'
UNION ALL
SELECT e.game, e.seq, e.turn, e.payload ->> 'deck', e.payload ->> 'card', NULL, NULL, NULL, e.player, NULL, NULL,
       NULL, coalesce(e.payload ->> 'source', 'physical')
FROM fct_events e WHERE NOT e.taken_back AND e.type = 'CardDrawn';
