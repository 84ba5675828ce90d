-- Which bus messages each insert of the OLAP writer carried, recorded before its rows go in.
--
-- An insert into an event table also writes that table's rollups, through materialized views, and
-- the two are not one transaction: the raw rows are committed first. A crash (or a lost
-- connection) between the two leaves the raw rows without their rollup rows. The bus then
-- delivers the messages again, maybe grouped with others. Found here, a group whose messages are
-- all back is inserted again exactly as before, under the same deduplication token, with
-- deduplicate_blocks_in_dependent_materialized_views: the engine drops what each table holds and
-- writes what it lacks, so raw rows and every rollup end up counting each event once.
CREATE TABLE IF NOT EXISTS writer_insert_groups (
  recorded_at DateTime64(3, 'UTC') DEFAULT now64(3) COMMENT 'When the writer recorded the group, just before its inserts (UTC).',
  message_ids Array(String) COMMENT 'The bus message ids of the group, in the order the insert''s deduplication token is made from.',
  left_out Array(String) COMMENT 'Event ids of redelivered messages that the insert left out, found written already (usually empty): inserted again, the group leaves them out too.'
)
ENGINE = MergeTree
ORDER BY recorded_at
TTL toDateTime(recorded_at) + INTERVAL 1 DAY
COMMENT 'Internal: the bus messages of each insert of the OLAP writer, kept a day so a redelivered group can be inserted again under its token. Not for analysis.';
