-- Dumped as dispels: One row per dispel attempt in The 9th Age, with the exact odds of dispelling.
-- Columns:
--   game: Game id (the header's `game`).
--   seq: Seq of the event in its game (1, 2, …).
--   turn: Game turn (Claustrophobia: round of the game).
--   player: Player id in the game (p1, p2).
--   wizard: Wizard id.
--   dice: Number of dice of the dispel.
--   roll_seq: Seq of the roll (`DiceRolled`).
--   total: Total of the roll with its modifier.
--   dispelled: Whether the dispel succeeded.
--   cast_seq: Seq of the casting attempt the dispel answers.
--   p_dispel: Exact probability that a dispel of these dice succeeds, under the game's rules.
--   spell: Spell id.
--   casting_total: Total of the casting attempt the dispel answers.
-- The 9th Age dispel attempts against the casting total they answer (the game's last casting attempt
-- before them), with the exact probability that such an attempt dispels, as the game's rules pack computes
-- it under the rules in force for that game (the event's odds, from the replay).
-- dispels_of(gs): the same for the games of list gs alone (NULL: every game): the filter applies before the joins.
CREATE OR REPLACE MACRO dispels_of(which_games) AS TABLE
WITH attempts AS (
    SELECT e.game, e.seq, e.turn, e.player, f.fact, e.taken_back, e.payload, e.odds,
           max(CASE WHEN f.fact = 'casts' THEN e.seq END) OVER (
               PARTITION BY e.game ORDER BY e.seq ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS cast_seq
    FROM fct_events e JOIN dim_facts f ON f.type = e.type AND f.fact IN ('casts', 'dispels')
    WHERE true
          AND (which_games IS NULL OR e.game IN (SELECT unnest(which_games)))
), dispels AS (
    SELECT game, seq, turn, player, payload ->> 'wizard' AS wizard, (payload ->> 'dice')::INTEGER AS dice,
           (payload ->> 'roll')::BIGINT AS roll_seq, (payload ->> 'total')::INTEGER AS total,
           (payload ->> 'dispelled')::BOOLEAN AS dispelled, cast_seq, (odds ->> 'dispel')::DOUBLE AS p_dispel
    FROM attempts WHERE NOT taken_back AND fact = 'dispels'
)
SELECT d.*, (c.payload ->> 'spell') AS spell, (c.payload ->> 'total')::INTEGER AS casting_total
FROM dispels d JOIN attempts c ON c.game = d.game AND c.seq = d.cast_seq;

CREATE OR REPLACE VIEW fct_dispels AS SELECT * FROM dispels_of(NULL);
