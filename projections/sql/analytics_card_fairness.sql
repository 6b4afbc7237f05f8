-- Per deck in the scope ($games, $tournament): are the cards drawn uniformly? Chi-square over the cards seen (cards - 1
-- degrees of freedom), Holm over the decks tested (an expected count >= 5 per card), plain verdict.
WITH draws AS (
    SELECT c.deck, c.card FROM stat_scoped('stat_cards', $games, $tournament) c
), counted AS (
    SELECT deck, card, count(*) AS n FROM draws GROUP BY deck, card
), tests AS (
    SELECT deck, sum(n) AS draws, count(*) AS cards, sum(n)::DOUBLE / count(*) AS expected,
           sum((n - sum_n / k) ** 2 / (sum_n / k)) AS chi2, (count(*) - 1)::INTEGER AS df
    FROM (SELECT *, sum(n) OVER (PARTITION BY deck) AS sum_n, count(*) OVER (PARTITION BY deck) AS k FROM counted)
    GROUP BY deck
), tested AS (
    SELECT *, stat_chi2_sf(chi2, df) AS p_value, expected >= 5 AND df > 0 AS in_family FROM tests
), ranked AS (
    SELECT *, row_number() OVER (ORDER BY p_value, deck) AS rank_no, count(*) OVER () AS family_size FROM tested WHERE in_family
), adjusted AS (
    SELECT deck, least(1.0, max((family_size - rank_no + 1) * p_value) OVER (ORDER BY rank_no ROWS UNBOUNDED PRECEDING))
           AS p_holm FROM ranked
)
SELECT t.deck, t.draws, t.cards, t.expected, t.chi2, t.df, t.p_value, a.p_holm,
       stat_verdict(a.p_holm, CASE WHEN t.in_family THEN t.expected END) AS verdict
FROM tested t LEFT JOIN adjusted a USING (deck) ORDER BY t.deck;
