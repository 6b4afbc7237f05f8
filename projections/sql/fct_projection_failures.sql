-- Games the replay could not follow, named by the batch that met them (one row a game: the latest).
DELETE FROM fct_projection_failures f USING batch_failures b WHERE f.stream_id = b.stream_id;

INSERT INTO fct_projection_failures SELECT game, stream_id, seq, error FROM batch_failures;
