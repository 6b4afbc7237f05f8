-- The statistics tables (stat_*.sql) brought up to date at the end of a projector run, in one
-- transaction: every game with events (or a header) after stat_position is computed again whole. A run
-- that stopped before this step leaves stat_position behind, so the next run catches up.

CREATE TEMP TABLE IF NOT EXISTS stat_touched (game VARCHAR);

DELETE FROM stat_touched;

INSERT INTO stat_touched
SELECT game FROM dim_games WHERE notification_id > (SELECT coalesce(max(notification_id), -1) FROM stat_position)
UNION
SELECT game FROM fct_events WHERE notification_id > (SELECT coalesce(max(notification_id), -1) FROM stat_position);

-- The number of games to refresh (none: nothing more to do; the projector publishes when it is not zero), and
-- those games as a list when they are few, given to the statements below as $few: the per-game views
-- (casts_of, dispels_of) then compute theirs alone; NULL when many (a rebuild): every game, the semi joins
-- keeping the touched. Every scan of a large table reads stat_rows_of(table, $few) (a few games' rows alone).
SELECT count(*), CASE WHEN count(*) <= 64 THEN list(game) END FROM stat_touched;

-- The dice in force of the touched games with each face's value: its number on a numbered die (every face
-- a number, e.g. the d6), else 1 for the faces success and crit and 0 for the others.
CREATE OR REPLACE TEMP TABLE stat_touched_dice AS
WITH dice AS (
    SELECT d.game, d.die, d.face, d.sides, d.total::DOUBLE AS total, d.ord,
           bool_and(regexp_full_match(d.face, '-?[0-9]+')) OVER (PARTITION BY d.game, d.die) AS numbered
    FROM stat_rows_of('dim_dice', $few) d SEMI JOIN stat_touched t ON t.game = d.game
)
SELECT *, CASE WHEN numbered THEN face::DOUBLE WHEN face IN ('success', 'crit') THEN 1.0 ELSE 0.0 END AS value
FROM dice;

-- Every throw of the touched games: the dice of each roll as they first showed, and each re-roll; with the
-- face a die of the roll must reach to count as a success (`needs`, a roll of purpose other), if any.
CREATE OR REPLACE TEMP TABLE stat_touched_rolls AS
SELECT * FROM stat_rows_of('fct_rolls', $few) r SEMI JOIN stat_touched t ON t.game = r.game;

CREATE OR REPLACE TEMP TABLE stat_touched_shown AS
SELECT f.game, f.roll_seq AS seq, f.roll_seq, f.player, f.purpose, f.die, 'roll' AS kind, f.original AS face,
       r.needs, r.label
FROM stat_rows_of('fct_dice', $few) f SEMI JOIN stat_touched t ON t.game = f.game
LEFT JOIN stat_touched_rolls r ON r.game = f.game AND r.seq = f.roll_seq
UNION ALL
SELECT e.game, e.seq, r.seq, r.player, r.purpose, r.die, 'reroll', e.payload ->> 'face', r.needs, r.label
FROM stat_rows_of('fct_events', $few) e SEMI JOIN stat_touched t ON t.game = e.game
JOIN stat_touched_rolls r ON r.game = e.game AND r.seq = (e.payload ->> 'roll')::BIGINT
WHERE e.type = 'DieRerolled' AND NOT e.taken_back;

DELETE FROM stat_throws WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_throws
WITH needs AS (  -- each die with the face its dice must reach (NULL: none, every face its value)
    SELECT DISTINCT game, die, needs FROM stat_touched_shown
), valued AS (  -- a face's value: its number or success, or, where a roll names what a die needs, 1 if reached
    SELECT d.game, d.die, n.needs, d.face, d.sides, d.total, d.numbered,
           CASE WHEN n.needs IS NULL THEN d.value ELSE (d.face::DOUBLE >= n.needs)::INTEGER::DOUBLE END AS value
    FROM stat_touched_dice d JOIN needs n ON n.game = d.game AND n.die = d.die
), moments AS (
    SELECT game, die, needs, bool_and(numbered) AND needs IS NULL AS numbered, sum(sides * value) / any_value(total) AS mean,
           sum(sides * value * value) / any_value(total) - (sum(sides * value) / any_value(total)) ** 2 AS var
    FROM valued GROUP BY game, die, needs
), throws AS (
    SELECT s.game, s.seq, s.roll_seq, s.player, s.purpose, s.label, s.die, s.needs, s.kind, count(*)::INTEGER AS n_dice,
           sum(d.value) AS observed
    FROM stat_touched_shown s JOIN valued d ON d.game = s.game AND d.die = s.die AND d.face = s.face
                                            AND d.needs IS NOT DISTINCT FROM s.needs
    GROUP BY ALL
)
SELECT t.game, t.seq, t.roll_seq, e.turn, t.player, t.purpose, t.die, t.kind,
       CASE WHEN die.numbered THEN 'pips' ELSE 'successes' END, t.n_dice, t.observed, t.n_dice * die.mean,
       t.n_dice * greatest(die.var, 0), t.observed - t.n_dice * die.mean,
       CASE WHEN die.var > 1e-12 THEN (t.observed - t.n_dice * die.mean) / sqrt(t.n_dice * die.var) END, t.label
FROM throws t JOIN moments die ON die.game = t.game AND die.die = t.die AND die.needs IS NOT DISTINCT FROM t.needs
LEFT JOIN (SELECT ev.game, ev.seq, ev.turn
           FROM stat_rows_of('fct_events', $few) ev SEMI JOIN stat_touched touched ON touched.game = ev.game) e
       ON e.game = t.game AND e.seq = t.seq;

-- Sums in the order of the throws: a refresh gives the figures of a rebuild to the last bit.
DELETE FROM stat_luck WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_luck
SELECT t.game, t.player, any_value(p.name), any_value(p.faction), t.unit, count(*), sum(t.n_dice),
       sum(t.observed ORDER BY t.seq, t.kind), sum(t.expected ORDER BY t.seq, t.kind), sum(t.luck ORDER BY t.seq, t.kind),
       sum(t.variance ORDER BY t.seq, t.kind)
FROM stat_rows_of('stat_throws', $few) t SEMI JOIN stat_touched s ON s.game = t.game
LEFT JOIN dim_players p ON p.game = t.game AND p.player = t.player
GROUP BY t.game, t.player, t.unit;

DELETE FROM stat_luck_dice WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_luck_dice
SELECT t.game, t.die, t.purpose, t.unit, count(*), sum(t.n_dice), sum(t.observed ORDER BY t.seq, t.kind),
       sum(t.expected ORDER BY t.seq, t.kind), sum(t.luck ORDER BY t.seq, t.kind), sum(t.variance ORDER BY t.seq, t.kind),
       t.label
FROM stat_rows_of('stat_throws', $few) t SEMI JOIN stat_touched s ON s.game = t.game
GROUP BY t.game, t.die, t.purpose, t.label, t.unit;

-- The touched games' faces before the refresh, taken out of stat_fairness_faces below.
CREATE OR REPLACE TEMP TABLE stat_faces_before AS
SELECT * FROM stat_rows_of('stat_faces', $few) f SEMI JOIN stat_touched t ON t.game = f.game;

DELETE FROM stat_faces WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_faces
WITH specs AS (
    SELECT game, die, string_agg(face || ':' || sides, ' ' ORDER BY ord) AS spec FROM stat_touched_dice GROUP BY game, die
), counted AS (
    SELECT game, player, die, face, count(*) AS thrown FROM stat_touched_shown GROUP BY ALL
), pairs AS (
    SELECT DISTINCT game, player, die FROM stat_touched_shown
)
SELECT p.game, p.player, pl.name, g.table_no, p.die, s.spec, d.face, d.ord, d.sides / d.total, coalesce(c.thrown, 0)
FROM pairs p JOIN stat_touched_dice d ON d.game = p.game AND d.die = p.die
JOIN specs s ON s.game = p.game AND s.die = p.die
JOIN dim_games g ON g.game = p.game
LEFT JOIN dim_players pl ON pl.game = p.game AND pl.player = p.player
LEFT JOIN counted c ON c.game = p.game AND c.player = p.player AND c.die = p.die AND c.face = d.face;

CREATE OR REPLACE TEMP TABLE stat_faces_after AS
SELECT * FROM stat_rows_of('stat_faces', $few) f SEMI JOIN stat_touched t ON t.game = f.game;

-- The season's faces per test: what was there, less the touched games' faces before, plus theirs now
-- (sums of integers: a refresh gives the figures of a rebuild).
CREATE OR REPLACE TEMP TABLE stat_fairness_next AS
WITH changes AS (
    SELECT * FROM stat_fairness_faces
    UNION ALL
    SELECT level, who, die, spec, face, ord, probability, -thrown, -n FROM stat_face_groups('stat_faces_before', NULL, NULL)
    UNION ALL
    SELECT * FROM stat_face_groups('stat_faces_after', NULL, NULL)
)
SELECT level, who, die, spec, face, any_value(ord), any_value(probability), sum(thrown)::BIGINT, sum(n)::BIGINT
FROM changes GROUP BY level, who, die, spec, face HAVING sum(n) > 0;

DELETE FROM stat_fairness_faces;

INSERT INTO stat_fairness_faces SELECT * FROM stat_fairness_next;

DELETE FROM stat_games WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_games
SELECT e.game, arg_min(e.player, e.seq), min(e.seq)
FROM stat_rows_of('fct_events', $few) e SEMI JOIN stat_touched t ON t.game = e.game
WHERE e.player IS NOT NULL AND NOT e.taken_back
GROUP BY e.game;

DELETE FROM stat_setups WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_setups
SELECT g.game, coalesce(json_array_length(json_extract(g.header, '$.setup.vortices')), 0)
FROM stat_rows_of('dim_games', $few) g SEMI JOIN stat_touched t ON t.game = g.game;

DELETE FROM stat_results WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_results
SELECT p.game, p.player, p.faction, o.faction,
       CASE WHEN g.winner = p.player THEN 'win' WHEN g.winner IS NULL THEN 'draw' ELSE 'loss' END
FROM stat_rows_of('dim_players', $few) p SEMI JOIN stat_touched t ON t.game = p.game
JOIN dim_games g ON g.game = p.game
JOIN dim_players o ON o.game = p.game AND o.player <> p.player
WHERE g.ended;

DELETE FROM stat_turns WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_turns
WITH timed AS (
    SELECT e.game, e.turn, e.played_at AS at_time
    FROM stat_rows_of('fct_events', $few) e SEMI JOIN stat_touched t ON t.game = e.game
    WHERE e.turn > 0 AND NOT e.taken_back
), turns AS (
    SELECT game, turn, min(at_time) AS first_at, max(at_time) AS last_at, count(*) AS n
    FROM timed WHERE at_time IS NOT NULL GROUP BY game, turn
)
SELECT game, turn, first_at, coalesce(lead(first_at) OVER w, last_at),
       epoch(coalesce(lead(first_at) OVER w, last_at)) - epoch(first_at), n
FROM turns WINDOW w AS (PARTITION BY game ORDER BY turn);

DELETE FROM stat_casts WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_casts
SELECT c.game, c.seq, c.player, c.dice, c.kind, c.passed, c.p_pass, c.miscast, c.p_miscast
FROM casts_of($few) c SEMI JOIN stat_touched t ON t.game = c.game;

DELETE FROM stat_dispels WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_dispels
SELECT d.game, d.seq, d.player, d.dice, d.dispelled, d.p_dispel
FROM dispels_of($few) d SEMI JOIN stat_touched t ON t.game = d.game;

DELETE FROM stat_stabilisations WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_stabilisations
SELECT r.game, r.seq, r.player, d.face, d.ord, d.sides / d.total, CAST(r.faces AS VARCHAR[])[1] = d.face
FROM stat_rows_of('fct_rolls', $few) r SEMI JOIN stat_touched t ON t.game = r.game
JOIN stat_touched_dice d ON d.game = r.game AND d.die = r.die
WHERE r.purpose = 'stabilisation';

DELETE FROM stat_cards WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_cards
SELECT c.game, c.seq, c.deck, c.card
FROM stat_rows_of('fct_card_draws', $few) c SEMI JOIN stat_touched t ON t.game = c.game
UNION ALL
SELECT e.game, e.seq, 'flux', e.payload ->> 'card'
FROM stat_rows_of('fct_events', $few) e
    SEMI JOIN stat_touched t ON t.game = e.game WHERE e.type = 'FluxCardDrawn' AND NOT e.taken_back;

DELETE FROM stat_initiative WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_initiative
SELECT i.game, i.seq, i.warrior, i.exhausted, i.set_aside
FROM stat_rows_of('fct_initiative', $few) i SEMI JOIN stat_touched t ON t.game = i.game;

DELETE FROM stat_vortices WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_vortices
WITH states AS (
    SELECT v.game, v.vortex, v.valid_from_seq, CAST(v.pos AS INTEGER[]) AS pos, v.ether, v.allegiance, v.removed
    FROM stat_rows_of('fct_vortex_states', $few) v SEMI JOIN stat_touched t ON t.game = v.game
), steps AS (
    SELECT *, lag(pos) OVER (PARTITION BY game, vortex ORDER BY valid_from_seq) AS prev,
           first(pos) OVER (PARTITION BY game, vortex ORDER BY valid_from_seq) AS start,
           last(pos) OVER (PARTITION BY game, vortex ORDER BY valid_from_seq
                           ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS finish
    FROM states
)
SELECT game, vortex, count(*) FILTER (WHERE prev IS NOT NULL AND pos <> prev),
       coalesce(sum((abs(pos[1] - prev[1]) + abs(pos[2] - prev[2]) + abs(pos[1] + pos[2] - prev[1] - prev[2])) // 2)
                FILTER (WHERE prev IS NOT NULL), 0),
       any_value((abs(finish[1] - start[1]) + abs(finish[2] - start[2]) + abs(finish[1] + finish[2] - start[1] - start[2])) // 2),
       arg_min(ether, valid_from_seq), arg_max(ether, valid_from_seq), arg_max_null(allegiance, valid_from_seq), bool_or(removed)
FROM steps GROUP BY game, vortex;

DELETE FROM stat_ether WHERE game IN (SELECT game FROM stat_touched);

INSERT INTO stat_ether
SELECT e.game, e.player, count(*), count(*) FILTER (WHERE (e.payload ->> 'success')::BOOLEAN),
       sum(coalesce((e.payload ->> 'ether_gained')::BIGINT, 0))
FROM stat_rows_of('fct_events', $few) e SEMI JOIN stat_touched t ON t.game = e.game
WHERE e.type = 'VortexExplored' AND NOT e.taken_back GROUP BY e.game, e.player;

DELETE FROM stat_position;

INSERT INTO stat_position
SELECT greatest((SELECT coalesce(max(notification_id), 0) FROM fct_events),
                (SELECT coalesce(max(notification_id), 0) FROM dim_games));
