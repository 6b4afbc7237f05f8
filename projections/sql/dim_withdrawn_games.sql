-- Games that a re-pairing of their round withdrew before they began (RoundPaired's `withdrawn`): they stay in
-- the store, header only, but count in no tournament.
CREATE OR REPLACE VIEW dim_withdrawn_games AS
SELECT DISTINCT name_slug(data ->> 'tournament') AS slug,
       unnest(json_extract_string(data, '$.withdrawn[*]')) AS game
FROM fct_tournament_events WHERE topic = 'rollcall-tournament:RoundPaired';
