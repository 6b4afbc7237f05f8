-- The notification id up to which the statistics tables are refreshed (one row; moved on by stat_touched.sql).
CREATE TABLE IF NOT EXISTS stat_position (
    notification_id BIGINT
);
