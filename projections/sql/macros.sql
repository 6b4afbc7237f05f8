-- Helpers of the projector's and the parser's connections (temporary: not stored in the database).
-- Positions come from json_transform/json_extract, so they are minified JSON text.

-- A model position as the domain keeps it: huge = its list of hexon centres, others [[q, r]] (a record
-- may write an infantry or large position as [q, r] or [[q, r]]; a huge one is always a list of lists).
CREATE OR REPLACE TEMP MACRO model_pos(v) AS CASE WHEN starts_with(v, '[[') THEN v ELSE '[' || v || ']' END;

-- Where ModelEjected puts a model: the first position of `to`, as [[q, r]].
CREATE OR REPLACE TEMP MACRO first_pos(v) AS
    CASE WHEN starts_with(v, '[[') THEN '[' || json_extract(v, '$[0]') || ']' ELSE '[' || v || ']' END;
