-- Unique visitors: each click carries a visitor hash (address and user agent under a daily salt
-- made from the deployment's key, src/ingest/visitors.ts), and the per-link series rollup keeps an
-- approximate distinct count of them per 15-minute bucket. Clicks stored before have no hash (0)
-- and count as clicks only. The rollup's view is made again to feed the new column.
ALTER TABLE clicks ADD COLUMN IF NOT EXISTS visitor_hash UInt64 DEFAULT 0
  COMMENT 'Keyed hash of the address and user agent under a salt that changes every UTC day: the same visitor within a day, never across days; 0 when unknown (clicks before migration 0010)';

ALTER TABLE click_series_15m ADD COLUMN IF NOT EXISTS visitors AggregateFunction(uniq, UInt64)
  COMMENT 'Distinct visitors in the bucket, approximate (uniqMerge() it; a visitor is counted again on another UTC day)';

DROP VIEW IF EXISTS click_series_15m_mv;

CREATE MATERIALIZED VIEW IF NOT EXISTS click_series_15m_mv TO click_series_15m AS
SELECT organization_id, link_type, link_id, toStartOfFifteenMinutes(ts) AS bucket, count() AS clicks,
  uniqStateIf(visitor_hash, visitor_hash != 0) AS visitors
FROM clicks
WHERE is_bot = 0
GROUP BY organization_id, link_type, link_id, bucket;

ALTER TABLE click_series_15m_mv
  MODIFY COMMENT 'Feeds click_series_15m (clicks and distinct visitors) from each insert into clicks. Internal.';
