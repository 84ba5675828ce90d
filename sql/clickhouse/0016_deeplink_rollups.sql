-- Rollups of the deep-link tables for the install and deferred-match statistics, so that a long
-- period reads buckets rather than every install, resolution and funnel stage.
--
-- 1. The install funnel of a link or app per funnel session and 15-minute UTC bucket, so that its
-- statistics group sessions rather than every stage event they sent (install-stats.ts).
--
-- A session's furthest stage over a period is the highest stage of its events in the period (a
-- lost beacon does not break the funnel). The rows here keep, per session and bucket, the highest
-- of the four install stages its events reached in that bucket: a period made of whole buckets
-- (every period is, in every real zone: 15 minutes divide every UTC offset in use) then gives the
-- same furthest stage per session as the raw events, by a max() over its buckets. max is
-- idempotent and order-free, so a stage that arrives hours after the click, a batch delivered
-- twice, and any order of merges leave the answer unchanged.
--
-- The view starts feeding before the table is filled from the raw stages; rows it fed in between
-- come back from the raw table too, which max() absorbs. A rerun of this file fills it again, the
-- same way harmlessly.

CREATE TABLE IF NOT EXISTS deeplink_funnel_sessions_15m (
  organization_id UInt64 COMMENT 'Organization (tenant) owning the app and link',
  app_id UInt64 COMMENT 'Id of the mobile app (PostgreSQL apps.id)',
  link_type Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'url, campaign, or none when the stage came without a link',
  link_id UInt64 COMMENT 'Id of the short URL or campaign (0 with none)',
  bucket DateTime('UTC') COMMENT 'Start of the 15-minute UTC bucket of the stage events',
  platform LowCardinality(String) COMMENT 'IOS, ANDROID, or empty when the stage came without one',
  session_id String COMMENT 'Funnel session (as in deeplink_funnel); never empty here',
  furthest SimpleAggregateFunction(max, UInt8) COMMENT 'Highest install stage the session''s events reached in the bucket: 1 CLICKED, 2 STORE_VISITED, 3 APP_INSTALLED, 4 APP_OPENED; max() it'
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, app_id, link_type, link_id, bucket, platform, session_id)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: furthest install-funnel stage (1 to 4) per funnel session per 15-minute UTC bucket, per app, link and platform. A session''s furthest stage over a period is max(furthest) GROUP BY session_id over the period''s buckets; exact in every time zone. Stages 5 and 6 (deep link resolved, goal) are not here: read deeplink_funnel.';

CREATE MATERIALIZED VIEW IF NOT EXISTS deeplink_funnel_sessions_15m_mv TO deeplink_funnel_sessions_15m AS
SELECT organization_id, app_id, link_type, link_id, toStartOfFifteenMinutes(ts) AS bucket, platform, session_id,
  max(toUInt8(stage)) AS furthest
FROM deeplink_funnel
WHERE session_id != '' AND toUInt8(stage) <= 4
GROUP BY organization_id, app_id, link_type, link_id, bucket, platform, session_id;

ALTER TABLE deeplink_funnel_sessions_15m_mv
  MODIFY COMMENT 'Feeds deeplink_funnel_sessions_15m from each insert into deeplink_funnel. Internal.';

INSERT INTO deeplink_funnel_sessions_15m
SELECT organization_id, app_id, link_type, link_id, toStartOfFifteenMinutes(ts) AS bucket, platform, session_id,
  max(toUInt8(stage)) AS furthest
FROM deeplink_funnel
WHERE session_id != '' AND toUInt8(stage) <= 4
GROUP BY organization_id, app_id, link_type, link_id, bucket, platform, session_id;

-- 2. First launches (resolutions that were not re-engagements) per app, 15-minute UTC bucket and
-- outcome, for the deferred-match statistics (deferred-match-stats.ts), and the same per UTC hour
-- for long periods in zones where hours are exact (click-rollup.ts, hourlyExact). Sums, so each
-- table is emptied right before it is filled: a rerun adds no second copy, and what the views fed
-- since they were created comes back once, from the raw table.

CREATE TABLE IF NOT EXISTS deeplink_first_launches_15m (
  organization_id UInt64 COMMENT 'Organization (tenant) owning the app',
  app_id UInt64 COMMENT 'Id of the mobile app (PostgreSQL apps.id)',
  bucket DateTime('UTC') COMMENT 'Start of the 15-minute bucket, UTC',
  matched UInt8 COMMENT '1 when the first launch found its click, else 0',
  match_type LowCardinality(String) COMMENT 'How it matched (referrer, clipboard, fingerprint, ...); empty when not matched',
  failure_reason LowCardinality(String) COMMENT 'Why it did not match (as deeplink_resolutions.failure_reason); empty when matched',
  confidence_decile UInt8 COMMENT 'Match confidence in tens: 0 for 0 to 9 ... 9 for 90 to 100',
  launches UInt64 COMMENT 'First launches with these values in the bucket; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, app_id, bucket, matched, match_type, failure_reason, confidence_decile)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: first launches (deep-link resolutions that were not re-engagements) per app per 15-minute UTC bucket, by outcome, match type, failure reason and confidence decile. Exact in every zone. Read with sum(launches) and GROUP BY.';

CREATE TABLE IF NOT EXISTS deeplink_first_launches_1h (
  organization_id UInt64 COMMENT 'Organization (tenant) owning the app',
  app_id UInt64 COMMENT 'Id of the mobile app (PostgreSQL apps.id)',
  bucket DateTime('UTC') COMMENT 'Start of the hour, UTC',
  matched UInt8 COMMENT '1 when the first launch found its click, else 0',
  match_type LowCardinality(String) COMMENT 'How it matched (referrer, clipboard, fingerprint, ...); empty when not matched',
  failure_reason LowCardinality(String) COMMENT 'Why it did not match (as deeplink_resolutions.failure_reason); empty when matched',
  confidence_decile UInt8 COMMENT 'Match confidence in tens: 0 for 0 to 9 ... 9 for 90 to 100',
  launches UInt64 COMMENT 'First launches with these values in the hour; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, app_id, bucket, matched, match_type, failure_reason, confidence_decile)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: deeplink_first_launches_15m per UTC hour. Exact for local days only in zones whose UTC offset is whole hours over the period (not +5:30 or +5:45: use deeplink_first_launches_15m there). Read with sum(launches) and GROUP BY.';

CREATE MATERIALIZED VIEW IF NOT EXISTS deeplink_first_launches_15m_mv TO deeplink_first_launches_15m AS
SELECT organization_id, app_id, toStartOfFifteenMinutes(ts) AS bucket, matched, match_type, failure_reason,
  least(intDiv(confidence, 10), 9) AS confidence_decile, count() AS launches
FROM deeplink_resolutions
WHERE reengagement = 0
GROUP BY organization_id, app_id, bucket, matched, match_type, failure_reason, confidence_decile;

CREATE MATERIALIZED VIEW IF NOT EXISTS deeplink_first_launches_1h_mv TO deeplink_first_launches_1h AS
SELECT organization_id, app_id, toStartOfHour(ts) AS bucket, matched, match_type, failure_reason,
  least(intDiv(confidence, 10), 9) AS confidence_decile, count() AS launches
FROM deeplink_resolutions
WHERE reengagement = 0
GROUP BY organization_id, app_id, bucket, matched, match_type, failure_reason, confidence_decile;

ALTER TABLE deeplink_first_launches_15m_mv
  MODIFY COMMENT 'Feeds deeplink_first_launches_15m from each insert into deeplink_resolutions. Internal.';

ALTER TABLE deeplink_first_launches_1h_mv
  MODIFY COMMENT 'Feeds deeplink_first_launches_1h from each insert into deeplink_resolutions. Internal.';

TRUNCATE TABLE IF EXISTS deeplink_first_launches_15m;

INSERT INTO deeplink_first_launches_15m
SELECT organization_id, app_id, toStartOfFifteenMinutes(ts) AS bucket, matched, match_type, failure_reason,
  least(intDiv(confidence, 10), 9) AS confidence_decile, count() AS launches
FROM deeplink_resolutions
WHERE reengagement = 0
GROUP BY organization_id, app_id, bucket, matched, match_type, failure_reason, confidence_decile;

TRUNCATE TABLE IF EXISTS deeplink_first_launches_1h;

INSERT INTO deeplink_first_launches_1h
SELECT organization_id, app_id, toStartOfHour(bucket) AS hour, matched, match_type, failure_reason, confidence_decile, sum(launches)
FROM deeplink_first_launches_15m
GROUP BY organization_id, app_id, hour, matched, match_type, failure_reason, confidence_decile;

-- 3. Installs and resolution attempts per app, link and 15-minute UTC bucket (and per hour, for
-- long periods in whole-hour zones) for the install statistics (install-stats.ts): installs by
-- day, platform, country and match type; attempts by outcome, method, failure reason and
-- re-engagement. The distinct re-engaged users are not here: merging exact sets per bucket
-- measured slower than counting them from the raw attempts. Emptied before filled, as above.

CREATE TABLE IF NOT EXISTS app_installs_15m (
  organization_id UInt64 COMMENT 'Organization (tenant) owning the app',
  app_id UInt64 COMMENT 'Id of the mobile app (PostgreSQL apps.id)',
  link_type Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'url or campaign the installs are attributed to; none for organic ones',
  link_id UInt64 COMMENT 'Id of the short URL or campaign (0 with none)',
  bucket DateTime('UTC') COMMENT 'Start of the 15-minute bucket, UTC',
  platform LowCardinality(String) COMMENT 'IOS or ANDROID',
  country LowCardinality(String) COMMENT 'Country code of the install (ISO 3166-1 alpha-2); empty when unknown',
  match_type LowCardinality(String) COMMENT 'How the install was attributed: referrer, fingerprint, clipboard or organic',
  installs UInt64 COMMENT 'Installs with these values in the bucket; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, app_id, link_type, link_id, bucket, platform, country, match_type)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: installs (first launches) per app, link, platform, country and match type per 15-minute UTC bucket. Exact in every zone. Read with sum(installs) and GROUP BY.';

CREATE TABLE IF NOT EXISTS app_installs_1h (
  organization_id UInt64 COMMENT 'Organization (tenant) owning the app',
  app_id UInt64 COMMENT 'Id of the mobile app (PostgreSQL apps.id)',
  link_type Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'url or campaign the installs are attributed to; none for organic ones',
  link_id UInt64 COMMENT 'Id of the short URL or campaign (0 with none)',
  bucket DateTime('UTC') COMMENT 'Start of the hour, UTC',
  platform LowCardinality(String) COMMENT 'IOS or ANDROID',
  country LowCardinality(String) COMMENT 'Country code of the install (ISO 3166-1 alpha-2); empty when unknown',
  match_type LowCardinality(String) COMMENT 'How the install was attributed: referrer, fingerprint, clipboard or organic',
  installs UInt64 COMMENT 'Installs with these values in the bucket; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, app_id, link_type, link_id, bucket, platform, country, match_type)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: app_installs_15m per UTC hour. Exact for local days only in zones whose UTC offset is whole hours over the period (not +5:30 or +5:45: use app_installs_15m there). Read with sum(installs) and GROUP BY.';

CREATE MATERIALIZED VIEW IF NOT EXISTS app_installs_15m_mv TO app_installs_15m AS
SELECT organization_id, app_id, link_type, link_id, toStartOfFifteenMinutes(ts) AS bucket, platform, country, match_type, count() AS installs
FROM app_installs
GROUP BY organization_id, app_id, link_type, link_id, bucket, platform, country, match_type;

CREATE MATERIALIZED VIEW IF NOT EXISTS app_installs_1h_mv TO app_installs_1h AS
SELECT organization_id, app_id, link_type, link_id, toStartOfHour(ts) AS bucket, platform, country, match_type, count() AS installs
FROM app_installs
GROUP BY organization_id, app_id, link_type, link_id, bucket, platform, country, match_type;

ALTER TABLE app_installs_15m_mv
  MODIFY COMMENT 'Feeds app_installs_15m from each insert into app_installs. Internal.';

ALTER TABLE app_installs_1h_mv
  MODIFY COMMENT 'Feeds app_installs_1h from each insert into app_installs. Internal.';

TRUNCATE TABLE IF EXISTS app_installs_15m;

INSERT INTO app_installs_15m
SELECT organization_id, app_id, link_type, link_id, toStartOfFifteenMinutes(ts) AS bucket, platform, country, match_type, count() AS installs
FROM app_installs
GROUP BY organization_id, app_id, link_type, link_id, bucket, platform, country, match_type;

TRUNCATE TABLE IF EXISTS app_installs_1h;

INSERT INTO app_installs_1h
SELECT organization_id, app_id, link_type, link_id, toStartOfHour(bucket) AS hour, platform, country, match_type, sum(installs)
FROM app_installs_15m
GROUP BY organization_id, app_id, link_type, link_id, hour, platform, country, match_type;

CREATE TABLE IF NOT EXISTS deeplink_attempts_15m (
  organization_id UInt64 COMMENT 'Organization (tenant) owning the app',
  app_id UInt64 COMMENT 'Id of the mobile app (PostgreSQL apps.id)',
  link_type Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'url or campaign the attempt resolved to; none when it resolved to none',
  link_id UInt64 COMMENT 'Id of the short URL or campaign (0 with none)',
  bucket DateTime('UTC') COMMENT 'Start of the 15-minute bucket, UTC',
  platform LowCardinality(String) COMMENT 'IOS, ANDROID, or empty when the app sent none',
  method LowCardinality(String) COMMENT 'How it was resolved: token, referrer, fingerprint, shorturl, campaign',
  matched UInt8 COMMENT '1 when it found its link, else 0',
  failure_reason LowCardinality(String) COMMENT 'Why it did not match (as deeplink_resolutions.failure_reason); empty when matched',
  reengagement UInt8 COMMENT '1 for an open of an installed app from a link, 0 for a first launch',
  attempts UInt64 COMMENT 'Attempts with these values in the bucket; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, app_id, link_type, link_id, bucket, platform, method, matched, failure_reason, reengagement)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: deep-link resolution attempts per app, link, platform, method, outcome, failure reason and re-engagement per 15-minute UTC bucket. Exact in every zone. Read with sum(attempts) and GROUP BY.';

CREATE TABLE IF NOT EXISTS deeplink_attempts_1h (
  organization_id UInt64 COMMENT 'Organization (tenant) owning the app',
  app_id UInt64 COMMENT 'Id of the mobile app (PostgreSQL apps.id)',
  link_type Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'url or campaign the attempt resolved to; none when it resolved to none',
  link_id UInt64 COMMENT 'Id of the short URL or campaign (0 with none)',
  bucket DateTime('UTC') COMMENT 'Start of the hour, UTC',
  platform LowCardinality(String) COMMENT 'IOS, ANDROID, or empty when the app sent none',
  method LowCardinality(String) COMMENT 'How it was resolved: token, referrer, fingerprint, shorturl, campaign',
  matched UInt8 COMMENT '1 when it found its link, else 0',
  failure_reason LowCardinality(String) COMMENT 'Why it did not match (as deeplink_resolutions.failure_reason); empty when matched',
  reengagement UInt8 COMMENT '1 for an open of an installed app from a link, 0 for a first launch',
  attempts UInt64 COMMENT 'Attempts with these values in the bucket; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, app_id, link_type, link_id, bucket, platform, method, matched, failure_reason, reengagement)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: deeplink_attempts_15m per UTC hour. Exact for local days only in zones whose UTC offset is whole hours over the period (not +5:30 or +5:45: use deeplink_attempts_15m there). Read with sum(attempts) and GROUP BY.';

CREATE MATERIALIZED VIEW IF NOT EXISTS deeplink_attempts_15m_mv TO deeplink_attempts_15m AS
SELECT organization_id, app_id, link_type, link_id, toStartOfFifteenMinutes(ts) AS bucket, platform, method, matched, failure_reason, reengagement, count() AS attempts
FROM deeplink_resolutions
GROUP BY organization_id, app_id, link_type, link_id, bucket, platform, method, matched, failure_reason, reengagement;

CREATE MATERIALIZED VIEW IF NOT EXISTS deeplink_attempts_1h_mv TO deeplink_attempts_1h AS
SELECT organization_id, app_id, link_type, link_id, toStartOfHour(ts) AS bucket, platform, method, matched, failure_reason, reengagement, count() AS attempts
FROM deeplink_resolutions
GROUP BY organization_id, app_id, link_type, link_id, bucket, platform, method, matched, failure_reason, reengagement;

ALTER TABLE deeplink_attempts_15m_mv
  MODIFY COMMENT 'Feeds deeplink_attempts_15m from each insert into deeplink_resolutions. Internal.';

ALTER TABLE deeplink_attempts_1h_mv
  MODIFY COMMENT 'Feeds deeplink_attempts_1h from each insert into deeplink_resolutions. Internal.';

TRUNCATE TABLE IF EXISTS deeplink_attempts_15m;

INSERT INTO deeplink_attempts_15m
SELECT organization_id, app_id, link_type, link_id, toStartOfFifteenMinutes(ts) AS bucket, platform, method, matched, failure_reason, reengagement, count() AS attempts
FROM deeplink_resolutions
GROUP BY organization_id, app_id, link_type, link_id, bucket, platform, method, matched, failure_reason, reengagement;

TRUNCATE TABLE IF EXISTS deeplink_attempts_1h;

INSERT INTO deeplink_attempts_1h
SELECT organization_id, app_id, link_type, link_id, toStartOfHour(bucket) AS hour, platform, method, matched, failure_reason, reengagement, sum(attempts)
FROM deeplink_attempts_15m
GROUP BY organization_id, app_id, link_type, link_id, hour, platform, method, matched, failure_reason, reengagement;
