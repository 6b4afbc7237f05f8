-- Games the replay could not follow (a stored game its rules pack cannot apply): from which seq, and why.
CREATE TABLE IF NOT EXISTS fct_projection_failures (
    game VARCHAR,
    stream_id VARCHAR,
    seq BIGINT,
    error VARCHAR
);

-- Games the replay could not follow, named by the batch that met them (one row a game: the latest).
DELETE FROM fct_projection_failures f USING batch_failures b WHERE f.stream_id = b.stream_id;

INSERT INTO fct_projection_failures SELECT game, stream_id, seq, error FROM batch_failures;
