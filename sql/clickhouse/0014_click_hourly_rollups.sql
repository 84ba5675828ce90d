-- Hourly click rollups beside the 15-minute ones, for long periods: a year of one link is 8,760
-- hourly buckets instead of 35,040. An hourly UTC bucket lies within one local hour and one local
-- day only in a zone whose offset is a whole number of hours (Asia/Seoul, America/New_York, also
-- across DST); +5:30 (Asia/Kolkata) and +5:45 (Asia/Kathmandu) split it, so statistics choose the
-- rollup per request (src/olap/click-rollup.ts) and keep the 15-minute ones for those zones.
--
-- Same shape and meaning as click_series_15m and click_dims_15m, fed from each insert into clicks
-- by their own views (each table keeps its own deduplication window, so a batch delivered twice is
-- dropped here too), and filled from the 15-minute rollups for the clicks already stored: an hour
-- is the sum of its four quarters, and merging the quarters' visitor sketches gives the sketch of
-- the hour's visitors.

CREATE TABLE IF NOT EXISTS click_series_1h (
  organization_id UInt64 COMMENT 'Organization (tenant) owning the link',
  link_type Enum8('url' = 1, 'campaign' = 2) COMMENT 'url or campaign',
  link_id UInt64 COMMENT 'Id of the short URL or campaign',
  bucket DateTime('UTC') COMMENT 'Start of the hour, UTC',
  clicks UInt64 COMMENT 'Clicks by people in the hour; sum() it',
  visitors AggregateFunction(uniq, UInt64) COMMENT 'Distinct visitors in the hour, approximate (uniqMerge() it; a visitor is counted again on another UTC day)'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, link_type, link_id, bucket)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: clicks by people and distinct visitors per link per UTC hour. Exact for daily and hourly series only in zones whose UTC offset is whole hours over the period (not +5:30 or +5:45: use click_series_15m there). Read with sum(clicks) and GROUP BY.';

CREATE TABLE IF NOT EXISTS click_dims_1h (
  organization_id UInt64 COMMENT 'Organization (tenant) owning the link',
  link_type Enum8('url' = 1, 'campaign' = 2) COMMENT 'url or campaign',
  link_id UInt64 COMMENT 'Id of the short URL or campaign',
  bucket DateTime('UTC') COMMENT 'Start of the hour, UTC',
  dim LowCardinality(String) COMMENT 'Dimension: country, device, os, browser, referrer, tracker, utm_source, utm_medium or utm_campaign',
  value String COMMENT 'Value of the dimension (country code, device type, host, ...); UTM dimensions leave out empty values',
  clicks UInt64 COMMENT 'Clicks by people with that value in the hour; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, link_type, link_id, bucket, dim, value)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: clicks by people per link per UTC hour per dimension value, as click_dims_15m. Exact for periods bounded at local midnights only in zones whose UTC offset is whole hours (use click_dims_15m for +5:30 or +5:45). Read with sum(clicks) WHERE dim = ... GROUP BY value.';

CREATE MATERIALIZED VIEW IF NOT EXISTS click_series_1h_mv TO click_series_1h AS
SELECT organization_id, link_type, link_id, toStartOfHour(ts) AS bucket, count() AS clicks,
  uniqStateIf(visitor_hash, visitor_hash != 0) AS visitors
FROM clicks
WHERE is_bot = 0
GROUP BY organization_id, link_type, link_id, bucket;

CREATE MATERIALIZED VIEW IF NOT EXISTS click_dims_1h_mv TO click_dims_1h AS
SELECT organization_id, link_type, link_id, toStartOfHour(ts) AS bucket,
  pair.1 AS dim, pair.2 AS value, count() AS clicks
FROM clicks
ARRAY JOIN [('country', toString(country)), ('device', toString(device_type)), ('os', toString(os)), ('browser', toString(browser)),
            ('referrer', toString(referrer_host)), ('tracker', toString(tracker)),
            ('utm_source', toString(utm_source)), ('utm_medium', toString(utm_medium)), ('utm_campaign', toString(utm_campaign))] AS pair
WHERE is_bot = 0 AND (pair.2 != '' OR pair.1 NOT IN ('utm_source', 'utm_medium', 'utm_campaign'))
GROUP BY organization_id, link_type, link_id, bucket, dim, value;

ALTER TABLE click_series_1h_mv
  MODIFY COMMENT 'Feeds click_series_1h (clicks and distinct visitors) from each insert into clicks. Internal.';

ALTER TABLE click_dims_1h_mv
  MODIFY COMMENT 'Feeds click_dims_1h (every dimension of click_dims_15m) from each insert into clicks. Internal.';

-- Each hourly table is emptied right before it is filled from its 15-minute one: a rerun of this
-- file adds no second copy, and clicks that the views fed since they were created (another instance
-- still writing during the upgrade) are in the 15-minute rollups already, so they come back once.
TRUNCATE TABLE IF EXISTS click_series_1h;

INSERT INTO click_series_1h
SELECT organization_id, link_type, link_id, toStartOfHour(bucket) AS hour, sum(clicks), uniqMergeState(visitors)
FROM click_series_15m
GROUP BY organization_id, link_type, link_id, hour;

TRUNCATE TABLE IF EXISTS click_dims_1h;

INSERT INTO click_dims_1h
SELECT organization_id, link_type, link_id, toStartOfHour(bucket) AS hour, dim, value, sum(clicks)
FROM click_dims_15m
GROUP BY organization_id, link_type, link_id, hour, dim, value;
