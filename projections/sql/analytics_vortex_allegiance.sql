-- Stabilisation rolls in the scope ($games, $tournament) (stat_stabilisations): the face finally shown decides the vortex's
-- allegiance (crit: the domain hostile to the model's, blank: the model's own, success: stays unaligned;
-- R11-R13), against the exact odds of the die in force.
SELECT s.face, CASE s.face WHEN 'crit' THEN 'hostile domain' WHEN 'blank' THEN 'own domain'
                           WHEN 'success' THEN 'stays unaligned' ELSE s.face END AS outcome,
       count(*) FILTER (WHERE s.shown) AS observed, sum(s.probability) AS expected,
       count(*) FILTER (WHERE s.shown) / count(*) AS share, sum(s.probability) / count(*) AS expected_share
FROM stat_scoped('stat_stabilisations', $games, $tournament) s
GROUP BY s.face ORDER BY min(s.ord), s.face;
