-- Every dispute (DisputeOpened): who called the judge, about which seqs, the claim, who recorded it,
-- and whether a ruling has answered it yet (a later RulingMade about one of its seqs).
CREATE OR REPLACE VIEW fct_disputes AS
WITH disputes AS (
    SELECT game, seq, payload ->> 'by' AS by_player, CAST(payload -> 'about' AS BIGINT[]) AS about,
           payload ->> 'claim' AS claim, payload ->> 'at' AS at, author
    FROM fct_events WHERE type = 'DisputeOpened'
), rulings AS (
    SELECT game, seq, CAST(payload -> 'about' AS BIGINT[]) AS about FROM fct_events WHERE type = 'RulingMade'
)
SELECT d.*, (SELECT min(r.seq) FROM rulings r
             WHERE r.game = d.game AND r.seq > d.seq AND len(list_intersect(r.about, d.about)) > 0) AS ruled_at
FROM disputes d;
