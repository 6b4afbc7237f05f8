-- Dumped as disputes: One row per dispute a player opened.
-- Columns:
--   game: Game id (the header's `game`).
--   seq: Seq of the event in its game (1, 2, …).
--   by_player: The player who opened the dispute.
--   about: Seqs of the events the dispute or ruling is about.
--   claim: What the player claims.
--   at: Time at the table the event gives (ISO 8601), if any.
--   author: Name of the access key that wrote the event (empty in a store without keys).
--   ruled_at: Seq of the ruling on the dispute (empty: not ruled yet).
-- Every dispute (DisputeOpened): who called the judge, about which seqs, the claim, who recorded it,
-- and whether a ruling has answered it yet (a later RulingMade about one of its seqs).
-- disputes_of(g): the same for game g alone (NULL: every game): the filter applies before the rulings are matched.
CREATE OR REPLACE MACRO disputes_of(which_game) AS TABLE
WITH disputes AS (
    SELECT game, seq, payload ->> 'by' AS by_player, CAST(payload -> 'about' AS BIGINT[]) AS about,
           payload ->> 'claim' AS claim, payload ->> 'at' AS at, author
    FROM fct_events WHERE type = 'DisputeOpened' AND (which_game IS NULL OR game = which_game)
), rulings AS (
    SELECT game, seq, CAST(payload -> 'about' AS BIGINT[]) AS about FROM fct_events
    WHERE type = 'RulingMade' AND (which_game IS NULL OR game = which_game)
)
SELECT d.*, (SELECT min(r.seq) FROM rulings r
             WHERE r.game = d.game AND r.seq > d.seq AND len(list_intersect(r.about, d.about)) > 0) AS ruled_at
FROM disputes d;

CREATE OR REPLACE VIEW fct_disputes AS SELECT * FROM disputes_of(NULL);
