-- Clicks per campaign cid, so a campaign's top-cid list no longer reads the raw clicks. Two
-- rollups: per UTC day (a year of one campaign is 365 buckets per cid) and per 15 minutes. A
-- period is made of local days, whose midnights fall on quarter hours in every real zone but on
-- UTC midnights only in UTC: it is read as the whole UTC days inside it from the daily rollup and
-- the two partial days at its ends from the 15-minute one (click-rollup.ts, utcDaySplit), which is
-- exact in every zone (+5:30 and +5:45 included) and reads at most two days of quarters.
--
-- Fed from each insert into clicks by their own views (each table keeps its own deduplication
-- window, so a batch delivered twice is dropped here too), and filled from the clicks already
-- stored. Each table is emptied right before it is filled: a rerun of this file adds no second
-- copy, and clicks the views fed since they were created come back once, from the raw table.

CREATE TABLE IF NOT EXISTS click_cids_15m (
  organization_id UInt64 COMMENT 'Organization (tenant) owning the link',
  link_type Enum8('url' = 1, 'campaign' = 2) COMMENT 'url or campaign (only campaign clicks carry a cid)',
  link_id UInt64 COMMENT 'Id of the campaign (or short URL)',
  bucket DateTime('UTC') COMMENT 'Start of the 15-minute bucket, UTC',
  cid String COMMENT 'User tracking id (cid) the click carried; never empty here',
  clicks UInt64 COMMENT 'Clicks by people with that cid in the bucket; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, link_type, link_id, bucket, cid)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: clicks by people per link per cid per 15-minute UTC bucket (clicks with a cid only). Exact for any period in any zone. Read with sum(clicks) GROUP BY cid.';

CREATE TABLE IF NOT EXISTS click_cids_1d (
  organization_id UInt64 COMMENT 'Organization (tenant) owning the link',
  link_type Enum8('url' = 1, 'campaign' = 2) COMMENT 'url or campaign (only campaign clicks carry a cid)',
  link_id UInt64 COMMENT 'Id of the campaign (or short URL)',
  day Date COMMENT 'UTC day of the clicks (from 00:00 to 24:00 UTC, not a local day)',
  cid String COMMENT 'User tracking id (cid) the click carried; never empty here',
  clicks UInt64 COMMENT 'Clicks by people with that cid on the UTC day; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (organization_id, link_type, link_id, day, cid)
TTL day + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: clicks by people per link per cid per UTC day (clicks with a cid only). A local day of any zone other than UTC straddles two UTC days: read whole UTC days from here and the partial ones at the ends of the period from click_cids_15m. Read with sum(clicks) GROUP BY cid.';

CREATE MATERIALIZED VIEW IF NOT EXISTS click_cids_15m_mv TO click_cids_15m AS
SELECT organization_id, link_type, link_id, toStartOfFifteenMinutes(ts) AS bucket, cid, count() AS clicks
FROM clicks
WHERE is_bot = 0 AND cid != ''
GROUP BY organization_id, link_type, link_id, bucket, cid;

CREATE MATERIALIZED VIEW IF NOT EXISTS click_cids_1d_mv TO click_cids_1d AS
SELECT organization_id, link_type, link_id, toDate(ts, 'UTC') AS day, cid, count() AS clicks
FROM clicks
WHERE is_bot = 0 AND cid != ''
GROUP BY organization_id, link_type, link_id, day, cid;

ALTER TABLE click_cids_15m_mv
  MODIFY COMMENT 'Feeds click_cids_15m (clicks per cid) from each insert into clicks. Internal.';

ALTER TABLE click_cids_1d_mv
  MODIFY COMMENT 'Feeds click_cids_1d (clicks per cid per UTC day) from each insert into clicks. Internal.';

TRUNCATE TABLE IF EXISTS click_cids_15m;

INSERT INTO click_cids_15m
SELECT organization_id, link_type, link_id, toStartOfFifteenMinutes(ts) AS bucket, cid, count() AS clicks
FROM clicks
WHERE is_bot = 0 AND cid != ''
GROUP BY organization_id, link_type, link_id, bucket, cid;

TRUNCATE TABLE IF EXISTS click_cids_1d;

INSERT INTO click_cids_1d
SELECT organization_id, link_type, link_id, toDate(bucket, 'UTC') AS day, cid, sum(clicks)
FROM click_cids_15m
GROUP BY organization_id, link_type, link_id, day, cid;
