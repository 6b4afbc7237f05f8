-- Dumped as rulings: One row per judge's ruling.
-- Columns:
--   game: Game id (the header's `game`).
--   seq: Seq of the event in its game (1, 2, …).
--   judge: The judge's name.
--   about: Seqs of the events the dispute or ruling is about.
--   decision: `stands` or `void`.
--   text: The ruling, in words.
--   at: Time at the table the event gives (ISO 8601), if any.
--   author: Name of the access key that wrote the event (empty in a store without keys).
-- Every ruling (RulingMade): the judge, the seqs it is about, `stands` or `void`, its text and who
-- recorded it. A `void` leaves its seqs out of the as-ruled game (fct_voided).
CREATE OR REPLACE VIEW fct_rulings AS
SELECT game, seq, payload ->> 'judge' AS judge, CAST(payload -> 'about' AS BIGINT[]) AS about,
       payload ->> 'decision' AS decision, payload ->> 'text' AS text, payload ->> 'at' AS at, author
FROM fct_events WHERE type = 'RulingMade';

-- The events the as-ruled game leaves out: one row per (game, seq), with the event that left it out
-- (`removed_by_seq`) and why (`reason`): `void` (a ruling), `taken back` (a scorekeeper's take-back) or
-- `rewound` (a judge's rewind), and the judge who did it (none for a take-back).
CREATE OR REPLACE VIEW fct_voided AS
SELECT r.game, unnest(r.about) AS seq, r.seq AS removed_by_seq, 'void' AS reason, r.judge
FROM fct_rulings r WHERE r.decision = 'void'
UNION ALL
SELECT game, unnest(CAST(payload -> 'taken_back' AS BIGINT[])) AS seq, seq AS removed_by_seq,
       CASE type WHEN 'TakenBack' THEN 'taken back' ELSE 'rewound' END AS reason, payload ->> 'judge' AS judge
FROM fct_events WHERE type IN ('TakenBack', 'GameRewound');
