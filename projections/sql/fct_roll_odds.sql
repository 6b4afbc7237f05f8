-- Every roll with the exact probability of its outcome under the dice in force (dim_dice):
-- explore — exactly k successes (crits count); dodge — dodged or not (at least one success);
-- a roll that names the face its dice need (purpose other, `needs`) — exactly k dice reaching it;
-- every other roll — the multiset of faces shown (stabilisation: the one face, 1/6 crit, 1/3 blank,
-- 1/2 success with the default attack die; vortex movement: the unordered pair).
-- roll_odds_of(g): the same for game g alone (NULL: every game), which a per-game reader uses: the
-- filter then applies before the odds are computed, not after.
CREATE OR REPLACE MACRO roll_odds_of(which_game) AS TABLE
WITH rolls AS (
    SELECT r.game, r.seq, r.player, r.purpose, r.die, r.n_dice, r.faces, r.source, r.needs,
           CAST(r.faces AS VARCHAR[]) AS shown
    FROM fct_rolls r WHERE which_game IS NULL OR r.game = which_game
), dice AS (
    SELECT * FROM dim_dice WHERE which_game IS NULL OR game = which_game
), counts AS (
    SELECT r.game, r.seq, f AS face, count(*) AS c FROM rolls r, unnest(r.shown) AS t(f) GROUP BY ALL
), odds AS (
    SELECT c.game, c.seq, sum(ln(d.sides::DOUBLE / d.total) * c.c) AS log_p, product(factorial(c.c::INTEGER))::DOUBLE AS ties,
           sum(CASE WHEN r.needs IS NOT NULL THEN (TRY_CAST(c.face AS DOUBLE) >= r.needs)::INTEGER * c.c
                    WHEN c.face IN ('crit', 'success') THEN c.c ELSE 0 END)::INTEGER AS k
    FROM counts c JOIN rolls r USING (game, seq) JOIN dice d ON d.game = c.game AND d.die = r.die AND d.face = c.face
    GROUP BY c.game, c.seq
), success AS (
    SELECT d.game, d.die, sum(CASE WHEN d.face IN ('crit', 'success') THEN d.sides ELSE 0 END)::DOUBLE / any_value(d.total) AS p
    FROM dice d GROUP BY d.game, d.die
), reaching AS (  -- per roll that needs a face: the chance that one die reaches it
    SELECT r.game, r.seq, sum(CASE WHEN TRY_CAST(d.face AS DOUBLE) >= r.needs THEN d.sides ELSE 0 END)::DOUBLE
                          / any_value(d.total) AS p
    FROM rolls r JOIN dice d ON d.game = r.game AND d.die = r.die WHERE r.needs IS NOT NULL GROUP BY r.game, r.seq
)
SELECT r.game, r.seq, r.player, r.purpose, r.die, r.n_dice, r.faces, r.source, o.k AS successes,
       CASE WHEN r.needs IS NOT NULL THEN factorial(r.n_dice)::DOUBLE / (factorial(o.k) * factorial(r.n_dice - o.k))
                                           * n.p ** o.k * (1 - n.p) ** (r.n_dice - o.k)
       ELSE CASE r.purpose
           WHEN 'explore' THEN factorial(r.n_dice)::DOUBLE / (factorial(o.k) * factorial(r.n_dice - o.k))
                               * s.p ** o.k * (1 - s.p) ** (r.n_dice - o.k)
           WHEN 'dodge' THEN CASE WHEN o.k >= 1 THEN 1 - (1 - s.p) ** r.n_dice ELSE (1 - s.p) ** r.n_dice END
           ELSE factorial(r.n_dice)::DOUBLE / o.ties * exp(o.log_p)
       END END AS p_outcome
FROM rolls r JOIN odds o USING (game, seq) LEFT JOIN success s ON s.game = r.game AND s.die = r.die
LEFT JOIN reaching n ON n.game = r.game AND n.seq = r.seq;

CREATE OR REPLACE VIEW fct_roll_odds AS SELECT * FROM roll_odds_of(NULL);

-- The rolls of game g that a re-roll after seq upto changed (their faces in fct_rolls are those after it): what a
-- viewer kept at upto by a broadcast delay (projections/visibility.py) may not see of them yet.
CREATE OR REPLACE MACRO rolls_changed_after(g, upto) AS TABLE
SELECT DISTINCT TRY_CAST(payload ->> 'roll' AS BIGINT) AS seq FROM fct_events
WHERE game = g AND type = 'DieRerolled' AND seq > upto;
