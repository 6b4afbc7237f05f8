-- Card draws per deck and card in the scope ($games, $tournament) (stat_cards: the phenomenon deck, any other deck of
-- CardDrawn, and the Flux cards), against a uniform draw over the cards seen in the scope.
WITH draws AS (
    SELECT c.deck, c.card FROM stat_scoped('stat_cards', $games, $tournament) c
), counted AS (
    SELECT deck, card, count(*) AS draws FROM draws GROUP BY deck, card
)
SELECT deck, card, draws, sum(draws) OVER (PARTITION BY deck) / count(*) OVER (PARTITION BY deck) AS expected,
       draws / sum(draws) OVER (PARTITION BY deck) AS share, 1 / count(*) OVER (PARTITION BY deck) AS expected_share
FROM counted ORDER BY deck, card;
