-- Every ruling (RulingMade): the judge, the seqs it is about, `stands` or `void`, its text and who
-- recorded it. A `void` leaves its seqs out of the as-ruled game (fct_voided).
CREATE OR REPLACE VIEW fct_rulings AS
SELECT game, seq, payload ->> 'judge' AS judge, CAST(payload -> 'about' AS BIGINT[]) AS about,
       payload ->> 'decision' AS decision, payload ->> 'text' AS text, payload ->> 'at' AS at, author
FROM fct_events WHERE type = 'RulingMade';

-- The events a ruling voided: one row per (game, seq) with the ruling that voided it.
CREATE OR REPLACE VIEW fct_voided AS
SELECT r.game, unnest(r.about) AS seq, r.seq AS ruling_seq, r.judge
FROM fct_rulings r WHERE r.decision = 'void';
