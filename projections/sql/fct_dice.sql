-- One row per die of each DiceRolled; `final` follows the DieRerolled events (of any later batch).
-- when: DiceRolled
INSERT INTO fct_dice
SELECT game, seq, idx - 1, face, face, false, die, purpose, player, source
FROM (SELECT e.game, e.seq, e.player, r.x.die AS die, r.x.purpose AS purpose,
             coalesce(r.x.source, 'physical') AS source,
             unnest(json_extract_string(r.x.faces, '$[*]')) AS face,
             generate_subscripts(json_extract_string(r.x.faces, '$[*]'), 1) AS idx
      FROM new_events e JOIN raw_events r USING (notification_id) WHERE e.type = 'DiceRolled');

-- when: DieRerolled
UPDATE fct_dice d SET final = r.face, rerolled = true
FROM (SELECT e.game, r.x.roll AS roll, r.x.index AS idx, arg_max(r.x.face, e.seq) AS face
      FROM new_events e JOIN raw_events r USING (notification_id) WHERE e.type = 'DieRerolled'
      GROUP BY ALL) r
WHERE d.game = r.game AND d.roll_seq = r.roll AND d.idx = r.idx;
