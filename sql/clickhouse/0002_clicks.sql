-- Clicks: the raw table (one row per redirect, bots flagged) and rollups that keep statistics and
-- clickCount independent of raw volume. Every table fed by a materialized view sets its own
-- deduplication window: then a batch delivered twice (same insert_deduplication_token) is dropped
-- in the rollups too, not only in the raw table.

CREATE TABLE IF NOT EXISTS clicks (
  event_id UUID,
  ts DateTime64(3, 'UTC'),
  organization_id UInt64,
  link_type Enum8('url' = 1, 'campaign' = 2),
  link_id UInt64,
  host LowCardinality(String),
  cid String,
  tracker LowCardinality(String),
  referrer String,
  referrer_host LowCardinality(String),
  utm_source LowCardinality(String),
  utm_medium LowCardinality(String),
  utm_campaign LowCardinality(String),
  utm_term String,
  utm_content String,
  ip String,
  user_agent String,
  accept_language LowCardinality(String),
  country LowCardinality(String),
  device_type LowCardinality(String),
  os LowCardinality(String),
  os_version LowCardinality(String),
  browser LowCardinality(String),
  is_bot UInt8,
  ingested_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, link_type, link_id, ts, event_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000;

-- clickCount of every short URL and campaign (humans only).
CREATE TABLE IF NOT EXISTS link_click_totals (
  organization_id UInt64,
  link_type Enum8('url' = 1, 'campaign' = 2),
  link_id UInt64,
  clicks UInt64
)
ENGINE = SummingMergeTree
ORDER BY (organization_id, link_type, link_id)
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS link_click_totals_mv TO link_click_totals AS
SELECT organization_id, link_type, link_id, count() AS clicks
FROM clicks
WHERE is_bot = 0
GROUP BY organization_id, link_type, link_id;

-- 15-minute UTC buckets serve every real time zone (+5:30, +5:45 included) for daily and hourly
-- series and the top lists.
CREATE TABLE IF NOT EXISTS clicks_15m (
  organization_id UInt64,
  link_type Enum8('url' = 1, 'campaign' = 2),
  link_id UInt64,
  bucket DateTime('UTC'),
  country LowCardinality(String),
  device_type LowCardinality(String),
  os LowCardinality(String),
  browser LowCardinality(String),
  referrer_host LowCardinality(String),
  tracker LowCardinality(String),
  clicks UInt64
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, link_type, link_id, bucket, country, device_type, os, browser, referrer_host, tracker)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS clicks_15m_mv TO clicks_15m AS
SELECT
  organization_id, link_type, link_id,
  toStartOfFifteenMinutes(ts) AS bucket,
  country, device_type, os, browser, referrer_host, tracker,
  count() AS clicks
FROM clicks
WHERE is_bot = 0
GROUP BY organization_id, link_type, link_id, bucket, country, device_type, os, browser, referrer_host, tracker;
