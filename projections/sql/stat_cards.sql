CREATE TABLE IF NOT EXISTS stat_cards (
    game VARCHAR,
    seq BIGINT,
    deck VARCHAR,
    card VARCHAR
);

DELETE FROM stat_cards WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_cards
SELECT c.game, c.seq, c.deck, c.card
FROM stat_rows_of('fct_card_draws', $few) c SEMI JOIN stat_touched t ON t.game = c.game
UNION ALL
SELECT e.game, e.seq, f.kind, e.payload ->> 'card'
FROM stat_rows_of('fct_events', $few) e SEMI JOIN stat_touched t ON t.game = e.game
JOIN dim_facts f ON f.type = e.type AND f.fact = 'flux_draws' WHERE NOT e.taken_back;
