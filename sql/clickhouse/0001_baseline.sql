-- The ClickHouse schema of 0.1.0, the first release: what migrations 0001 to 0018 of the
-- development history added up to (git history has them), as one file. Later migrations start at
-- 0002 (src/shared/migration-files.ts). Tables come first, then the stable views, then the
-- materialized views that feed the rollups, so nothing is fed before its table exists.
--
-- What every table and column holds is in their COMMENTs, for people who query ClickHouse
-- themselves (docs/clickhouse.md is the guide). Times are UTC throughout; a statistics time zone
-- is applied when reading. Statements are idempotent (IF NOT EXISTS): a file stopped half-way runs
-- again.


-- Raw event tables: one row per event, ordered by organization, then link or app, then time;
-- partitioned by month, kept by TTL. Each sets a deduplication window: a batch delivered twice
-- (same insert_deduplication_token) is dropped, here and, through the views, in every rollup.
CREATE TABLE IF NOT EXISTS api_requests
(
  `event_id` UUID COMMENT 'Unique id of the call (UUIDv7, time-ordered)',
  `ts` DateTime64(3, 'UTC') COMMENT 'When the call was answered, UTC, millisecond precision',
  `organization_id` UInt64 COMMENT 'Organization (tenant) whose API key made the call',
  `api_key_id` UInt64 COMMENT 'Id of the Service API key used (PostgreSQL api_keys.id)',
  `method` LowCardinality(String) COMMENT 'HTTP method',
  `route` LowCardinality(String) COMMENT 'Route pattern, e.g. /api/v1/service/urls/:id (no ids or query)',
  `status` UInt16 COMMENT 'HTTP status code answered',
  `duration_ms` Float32 COMMENT 'Time to answer, milliseconds',
  `ip` String COMMENT 'Client IP address as seen by the service (after trusted proxies). Personal data',
  `request_id` String COMMENT 'X-Request-Id of the call, to find it in the service''s logs'
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, ts, event_id)
TTL toDateTime(ts) + INTERVAL 400 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'One row per Service API call (not the SDK or console APIs). Raw; kept 400 days. Read through api usage, not by customers directly.';

CREATE TABLE IF NOT EXISTS clicks
(
  `event_id` UUID COMMENT 'Unique id of the click (UUIDv7, time-ordered); a redelivered click keeps it',
  `ts` DateTime64(3, 'UTC') COMMENT 'When the click was answered, UTC, millisecond precision',
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the link',
  `link_type` Enum8('url' = 1, 'campaign' = 2) COMMENT 'url (a short URL) or campaign',
  `link_id` UInt64 COMMENT 'Id of the short URL or campaign (PostgreSQL short_urls.id or campaigns.id, per link_type)',
  `host` LowCardinality(String) COMMENT 'Host the link was opened on: the service''s own or a custom domain',
  `cid` String COMMENT 'Campaign click: the user tracking id (cid) the link carried; empty otherwise',
  `tracker` LowCardinality(String) COMMENT 'Campaign click: the tracker parameter the link carried; empty otherwise',
  `referrer` String COMMENT 'Referer header as sent (may be empty)',
  `referrer_host` LowCardinality(String) COMMENT 'Host of the referrer, lower case; empty for direct traffic',
  `utm_source` LowCardinality(String) COMMENT 'utm_source the click carried (the link''s own UTM parameters are in PostgreSQL)',
  `utm_medium` LowCardinality(String) COMMENT 'utm_medium the click carried',
  `utm_campaign` LowCardinality(String) COMMENT 'utm_campaign the click carried',
  `utm_term` String COMMENT 'utm_term the click carried',
  `utm_content` String COMMENT 'utm_content the click carried',
  `ip` String COMMENT 'Client IP address (after trusted proxies). Personal data; not in clicks_v1',
  `user_agent` String COMMENT 'User-Agent header, at most 1,000 characters. Not in clicks_v1',
  `accept_language` LowCardinality(String) COMMENT 'Accept-Language header, at most 100 characters',
  `country` LowCardinality(String) COMMENT 'ISO 3166-1 alpha-2 country from the IP address; empty when unknown',
  `device_type` LowCardinality(String) COMMENT 'Mobile, Desktop or Tablet, from the user agent',
  `os` LowCardinality(String) COMMENT 'Operating system name from the user agent (iOS, Android, Windows, ...); Unknown when none',
  `os_version` LowCardinality(String) COMMENT 'Operating system version from the user agent; empty when none',
  `browser` LowCardinality(String) COMMENT 'Browser name from the user agent; Unknown when none',
  `is_bot` UInt8 COMMENT '1 for crawlers, preview fetchers and other automated clients; statistics count 0 only',
  `ingested_at` DateTime64(3, 'UTC') DEFAULT now64(3) COMMENT 'When the row was written, UTC (ts plus the pipeline''s delay)',
  `source` LowCardinality(String) DEFAULT '' COMMENT 'redirect (the service answered it) or mobile_sdk (an app reported it); empty on rows before migration 0006',
  `click_id` UInt64 DEFAULT 0 COMMENT 'Number the mobile SDK handed back for a click it reported; 0 otherwise',
  `visitor_hash` UInt64 DEFAULT 0 COMMENT 'Keyed hash of the address and user agent under a salt that changes every UTC day: the same visitor within a day, never across days; 0 when unknown (clicks before migration 0010)'
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, link_type, link_id, ts, event_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'One row per click on a short URL or campaign link: the redirect''s and the ones the mobile SDK reports. Bots included (is_bot = 1). Raw; kept 1,825 days. For counts over time prefer click_series_15m and click_dims_15m; read people through clicks_v1.';

-- Rollups, each fed by materialized views (below) and keeping its own deduplication window.
-- 15-minute UTC buckets divide every real time zone offset (+5:30 and +5:45 included), so daily and
-- hourly figures in any zone come from them exactly; the hourly ones serve long periods in zones
-- whose offset is whole hours (src/olap/click-rollup.ts chooses). click_series_* keep approximate
-- distinct visitors (a hash of address and user agent under a daily salt, src/ingest/visitors.ts).
CREATE TABLE IF NOT EXISTS link_click_totals
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the link',
  `link_type` Enum8('url' = 1, 'campaign' = 2) COMMENT 'url or campaign',
  `link_id` UInt64 COMMENT 'Id of the short URL or campaign',
  `clicks` UInt64 COMMENT 'Clicks by people (is_bot = 0); sum() it'
)
ENGINE = SummingMergeTree
ORDER BY (organization_id, link_type, link_id)
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: clicks by people per link since it was made (the API''s clickCount). Summed by the engine: read with sum(clicks) and GROUP BY.';

CREATE TABLE IF NOT EXISTS click_series_15m
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the link',
  `link_type` Enum8('url' = 1, 'campaign' = 2) COMMENT 'url or campaign',
  `link_id` UInt64 COMMENT 'Id of the short URL or campaign',
  `bucket` DateTime('UTC') COMMENT 'Start of the 15-minute bucket, UTC',
  `clicks` UInt64 COMMENT 'Clicks by people in the bucket; sum() it',
  `visitors` AggregateFunction(uniq, UInt64) COMMENT 'Distinct visitors in the bucket, approximate (uniqMerge() it; a visitor is counted again on another UTC day)'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, link_type, link_id, bucket)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: clicks by people per link per 15-minute UTC bucket. 15 minutes divide every real time zone offset (+5:30 and +5:45 too), so daily and hourly series in any zone come from here exactly. Read with sum(clicks) and GROUP BY.';

CREATE TABLE IF NOT EXISTS click_dims_15m
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the link',
  `link_type` Enum8('url' = 1, 'campaign' = 2) COMMENT 'url or campaign',
  `link_id` UInt64 COMMENT 'Id of the short URL or campaign',
  `bucket` DateTime('UTC') COMMENT 'Start of the 15-minute bucket, UTC',
  `dim` LowCardinality(String) COMMENT 'Dimension: country, device, os, browser, referrer, tracker, utm_source, utm_medium or utm_campaign',
  `value` String COMMENT 'Value of the dimension (country code, device type, host, ...); UTM dimensions leave out empty values',
  `clicks` UInt64 COMMENT 'Clicks by people with that value in the bucket; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, link_type, link_id, bucket, dim, value)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: clicks by people per link per 15-minute UTC bucket per dimension value (country, device, os, browser, referrer, tracker, utm_source, utm_medium, utm_campaign). Read with sum(clicks) WHERE dim = ... GROUP BY value.';

CREATE TABLE IF NOT EXISTS deeplink_funnel
(
  `event_id` UUID COMMENT 'Unique id of the stage event (UUIDv7)',
  `ts` DateTime64(3, 'UTC') COMMENT 'When the stage was reached, UTC',
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the app',
  `app_id` UInt64 COMMENT 'Id of the mobile app (PostgreSQL mobile_apps.id); 0 when not known',
  `platform` LowCardinality(String) COMMENT 'IOS, ANDROID, or empty when the stage came without one',
  `session_id` String COMMENT 'Funnel session that ties the stages of one person''s path together',
  `stage` Enum8('CLICKED' = 1, 'STORE_VISITED' = 2, 'APP_INSTALLED' = 3, 'APP_OPENED' = 4, 'DEEP_LINK_RESOLVED' = 5, 'GOAL_COMPLETED' = 6) COMMENT 'CLICKED, STORE_VISITED, APP_INSTALLED, APP_OPENED, DEEP_LINK_RESOLVED or GOAL_COMPLETED (in this order)',
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'url, campaign, or none when no link is known',
  `link_id` UInt64 COMMENT 'Id of the short URL or campaign; 0 with none',
  `goal_type` LowCardinality(String) COMMENT 'GOAL_COMPLETED: the goal type (PURCHASE, SIGNUP, ... or the organization''s own)',
  `goal_value` Float64 COMMENT 'GOAL_COMPLETED: the value reported (revenue for PURCHASE), in currency; 0 when none or not numeric',
  `goal_text` String DEFAULT '' COMMENT 'GOAL_COMPLETED: the value reported when it is not a number (goal_value is then 0), as the app sent it; empty otherwise',
  `currency` LowCardinality(String) COMMENT 'ISO 4217 currency of goal_value; empty when none',
  `device_type` LowCardinality(String) COMMENT 'Mobile, Tablet or Desktop when known',
  `external_user_id` String COMMENT 'The app''s own user id when it identified the user; empty otherwise',
  `source` LowCardinality(String) COMMENT 'Where the stage was recorded: landing (the landing page), server (a resolution) or sdk (funnel/track)',
  `ingested_at` DateTime64(3, 'UTC') DEFAULT now64(3) COMMENT 'When the row was written, UTC'
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, app_id, ts, event_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Mobile deep-link funnel: one row per stage reached (click, store visit, install, open, deep link resolved, goal completed), from the landing page, resolutions and the SDK''s funnel/track. Goals carry revenue. Raw; kept 1,825 days. Read through funnel_events_v1.';

CREATE TABLE IF NOT EXISTS deeplink_resolutions
(
  `event_id` UUID COMMENT 'Unique id of the attempt (UUIDv7)',
  `ts` DateTime64(3, 'UTC') COMMENT 'When the app asked, UTC',
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the app',
  `app_id` UInt64 COMMENT 'Id of the mobile app',
  `platform` LowCardinality(String) COMMENT 'IOS or ANDROID',
  `method` LowCardinality(String) COMMENT 'What the app asked with: token, referrer, fingerprint, shorturl or campaign',
  `matched` UInt8 COMMENT '1 when a click was found, 0 otherwise',
  `match_type` LowCardinality(String) COMMENT 'How it matched: referrer, fingerprint, token or direct; empty when not matched',
  `confidence` UInt8 COMMENT 'Match confidence, 0 to 100; on a missed first launch the score of the best click found',
  `failure_reason` LowCardinality(String) COMMENT 'Why it did not match; a first launch: no_candidate, below_threshold, already_consumed, expired or link_deleted (older rows: unknown_token, expired_token, os_mismatch, ...); a re-engagement: unknown_token, expired_token, unknown_code, link_expired, link_deleted; empty when matched',
  `signals` Array(LowCardinality(String)) COMMENT 'What agreed on a first launch''s match: referrer or token for a held token, else ip, ipNetwork, os, osVersion, deviceModel, resolution, language, timeZone; empty otherwise',
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'url, campaign, or none',
  `link_id` UInt64 COMMENT 'Id of the short URL or campaign matched; 0 with none',
  `reengagement` UInt8 COMMENT '1 when the app was already installed (an open from a link), 0 for a first launch',
  `user_key` String COMMENT 'Who, without personal data: the external user id when known, else a hash of device signals',
  `ingested_at` DateTime64(3, 'UTC') DEFAULT now64(3) COMMENT 'When the row was written, UTC'
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, app_id, ts, event_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Every deferred or direct deep-link resolution an app asked for, matched or not, with how and why. Raw; kept 1,825 days. Quality statistics read it.';

CREATE TABLE IF NOT EXISTS app_installs
(
  `event_id` UUID COMMENT 'Unique id of the install (UUIDv7)',
  `ts` DateTime64(3, 'UTC') COMMENT 'When the app first launched, UTC',
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the app',
  `app_id` UInt64 COMMENT 'Id of the mobile app',
  `platform` LowCardinality(String) COMMENT 'IOS or ANDROID',
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'The link the install is attributed to: url, campaign, or none for an organic install',
  `link_id` UInt64 COMMENT 'Id of that short URL or campaign; 0 with none',
  `match_type` LowCardinality(String) COMMENT 'How it was attributed: referrer, fingerprint or organic',
  `confidence` UInt8 COMMENT 'Attribution confidence, 0 to 100',
  `country` LowCardinality(String) COMMENT 'ISO 3166-1 alpha-2 country from the IP address; empty when unknown',
  `os_version` LowCardinality(String) COMMENT 'Operating system version the app reported',
  `session_id` String COMMENT 'Funnel session of the install (ties it to deeplink_funnel)',
  `ingested_at` DateTime64(3, 'UTC') DEFAULT now64(3) COMMENT 'When the row was written, UTC'
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, app_id, ts, event_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'One row per app install (first launch), attributed to a link or organic. Raw; kept 1,825 days. Read through installs_v1.';

-- User journey (add-on). Correct under redelivery and out-of-order arrival by construction: the
-- raw tables are ReplacingMergeTrees keyed by event id (reads also count distinct event ids, so
-- unmerged parts never show twice), and journey_sessions keeps only idempotent, order-free
-- aggregates per session (min, max, uniqExact), so an event applied twice, or late, changes nothing.
-- The raw tables lie in time order within an organization (a session id is a UUIDv7 of its start):
-- a minmax index on ts lets a period skip every granule outside it.
CREATE TABLE IF NOT EXISTS journey_session_starts
(
  `event_id` UUID COMMENT 'Unique id of the session start',
  `ts` DateTime64(3, 'UTC') COMMENT 'When the session started, UTC',
  `organization_id` UInt64 COMMENT 'Organization (tenant)',
  `app_id` UInt64 COMMENT 'Id of the mobile app the journey API key belongs to',
  `session_id` String COMMENT 'The session''s id',
  `platform` LowCardinality(String) COMMENT 'WEB, IOS or ANDROID',
  `external_user_id` String COMMENT 'The customer''s own user id when known; empty otherwise',
  `utm_source` LowCardinality(String) COMMENT 'utm_source the session started with',
  `utm_medium` LowCardinality(String) COMMENT 'utm_medium the session started with',
  `utm_campaign` LowCardinality(String) COMMENT 'utm_campaign the session started with',
  `referrer_host` LowCardinality(String) COMMENT 'Host of the referrer the session started with; empty for direct',
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'The short link the session came from: url, campaign, or none',
  `link_id` UInt64 COMMENT 'Id of that short URL or campaign; 0 with none',
  `ingested_at` DateTime64(3, 'UTC') DEFAULT now64(3) COMMENT 'When the row was written, UTC'
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, session_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'User journey (add-on): one row per session started, web or app, with where it came from. ReplacingMergeTree by event: count distinct event_id. Read sessions through sessions_v1.';

CREATE TABLE IF NOT EXISTS journey_events
(
  `event_id` UUID COMMENT 'Unique id of the event (the client''s eventId when it sent one)',
  `ts` DateTime64(3, 'UTC') COMMENT 'When the event happened, UTC',
  `organization_id` UInt64 COMMENT 'Organization (tenant)',
  `app_id` UInt64 COMMENT 'Id of the mobile app the journey API key belongs to',
  `session_id` String COMMENT 'The session the event belongs to',
  `platform` LowCardinality(String) COMMENT 'WEB, IOS or ANDROID',
  `event_type` LowCardinality(String) COMMENT 'The event''s type as the caller named it (page_view, ...)',
  `properties` String COMMENT 'The caller''s properties object as JSON text (JSONExtract* reads it)',
  `external_user_id` String COMMENT 'The customer''s own user id when known; empty otherwise',
  `ingested_at` DateTime64(3, 'UTC') DEFAULT now64(3) COMMENT 'When the row was written, UTC',
  INDEX ts_minmax ts TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, session_id, event_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'User journey (add-on): one row per event of a session (page view, tap, ...). ReplacingMergeTree by event: count distinct event_id. Read through journey_events_v1.';

CREATE TABLE IF NOT EXISTS journey_transitions
(
  `event_id` UUID COMMENT 'Unique id of the transition',
  `ts` DateTime64(3, 'UTC') COMMENT 'When the transition happened, UTC',
  `organization_id` UInt64 COMMENT 'Organization (tenant)',
  `app_id` UInt64 COMMENT 'Id of the mobile app the journey API key belongs to',
  `session_id` String COMMENT 'The session it left',
  `from_platform` LowCardinality(String) COMMENT 'WEB, IOS or ANDROID: where it left',
  `to_platform` LowCardinality(String) COMMENT 'WEB, IOS or ANDROID: where it went',
  `target_session_id` String COMMENT 'The session on the destination platform, when the app already has one',
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'The short link it went through: url, campaign, or none',
  `link_id` UInt64 COMMENT 'Id of that short URL or campaign; 0 with none',
  `deep_link_token` String COMMENT 'Deep-link token that carried the journey across, when one did',
  `external_user_id` String COMMENT 'The customer''s own user id when known; empty otherwise',
  `properties` String COMMENT 'The caller''s properties object as JSON text',
  `ingested_at` DateTime64(3, 'UTC') DEFAULT now64(3) COMMENT 'When the row was written, UTC',
  INDEX ts_minmax ts TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, session_id, event_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'User journey (add-on): one row per move between platforms (web to app, app to web, app to app). ReplacingMergeTree by event: count distinct event_id. Read through transitions_v1.';

CREATE TABLE IF NOT EXISTS journey_funnel
(
  `event_id` UUID COMMENT 'Unique id of the stage event',
  `ts` DateTime64(3, 'UTC') COMMENT 'When the stage was reached, UTC',
  `organization_id` UInt64 COMMENT 'Organization (tenant)',
  `app_id` UInt64 COMMENT 'Id of the mobile app the journey API key belongs to',
  `session_id` String COMMENT 'The session that reached the stage',
  `platform` LowCardinality(String) COMMENT 'WEB, IOS or ANDROID',
  `stage` Enum8('CLICKED' = 1, 'DEEP_LINK_RESOLVED' = 2, 'CONTENT_VIEWED' = 3, 'ACTION_TAKEN' = 4, 'GOAL_COMPLETED' = 5) COMMENT 'CLICKED, DEEP_LINK_RESOLVED, CONTENT_VIEWED, ACTION_TAKEN or GOAL_COMPLETED (in this order)',
  `goal_type` LowCardinality(String) COMMENT 'GOAL_COMPLETED: the goal type',
  `goal_value` Float64 COMMENT 'GOAL_COMPLETED: the value reported, in currency; 0 when none',
  `currency` LowCardinality(String) COMMENT 'ISO 4217 currency of goal_value; empty when none',
  `transaction_id` String COMMENT 'The caller''s transaction id for a purchase; empty otherwise',
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'The short link involved: url, campaign, or none',
  `link_id` UInt64 COMMENT 'Id of that short URL or campaign; 0 with none',
  `external_user_id` String COMMENT 'The customer''s own user id when known; empty otherwise',
  `ingested_at` DateTime64(3, 'UTC') DEFAULT now64(3) COMMENT 'When the row was written, UTC',
  INDEX ts_minmax ts TYPE minmax GRANULARITY 1
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, session_id, event_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'User journey (add-on): the web funnel, one row per stage reached (CLICKED, DEEP_LINK_RESOLVED, CONTENT_VIEWED, ACTION_TAKEN, GOAL_COMPLETED). ReplacingMergeTree by event: count distinct event_id.';

-- One row set per session, keyed by its start: a session's id is a UUIDv7 the service issues from
-- the start time, so every row of a session knows started_at from the id alone (its first 48 bits
-- are Unix milliseconds). The latest user id is a max() over '<15-digit Unix ms><id>' strings.
CREATE TABLE IF NOT EXISTS journey_sessions
(
  `organization_id` UInt64 COMMENT 'Organization (tenant)',
  `started_at` DateTime64(3, 'UTC') COMMENT 'When the session started, UTC: the time in its UUIDv7 id, which the service issues at sessions/start. The session''s time in statistics',
  `session_id` String COMMENT 'The session''s id',
  `first_seen` SimpleAggregateFunction(min, DateTime64(3, 'UTC')) COMMENT 'Earliest activity of the session, UTC (min() it); a client may date an event before the start',
  `last_seen` SimpleAggregateFunction(max, DateTime64(3, 'UTC')) COMMENT 'Latest activity of the session, UTC (max() it)',
  `app_id` SimpleAggregateFunction(max, UInt64) COMMENT 'Id of the mobile app (max() it)',
  `platform` SimpleAggregateFunction(max, String) COMMENT 'WEB, IOS or ANDROID (max() it)',
  `utm_source` SimpleAggregateFunction(max, String) COMMENT 'utm_source the session started with (max() it)',
  `utm_medium` SimpleAggregateFunction(max, String) COMMENT 'utm_medium the session started with (max() it)',
  `utm_campaign` SimpleAggregateFunction(max, String) COMMENT 'utm_campaign the session started with (max() it)',
  `latest_user` SimpleAggregateFunction(max, String) COMMENT 'The latest non-empty external user id, after the 15-digit Unix ms it was seen at (max() it, then substring(…, 16)); empty when none',
  `events` AggregateFunction(uniqExact, UUID) COMMENT 'State of the distinct events of the session (uniqExactMerge() it)',
  `transitions` AggregateFunction(uniqExact, UUID) COMMENT 'State of the distinct transitions of the session (uniqExactMerge() it)',
  `max_stage` SimpleAggregateFunction(max, UInt8) COMMENT 'Highest web funnel stage reached, 1 CLICKED to 5 GOAL_COMPLETED, 0 for none (max() it)',
  `goals` AggregateFunction(uniqExact, UUID) COMMENT 'State of the distinct goals completed in the session (uniqExactMerge() it)',
  `event_lo` SimpleAggregateFunction(min, UInt128) DEFAULT toUInt128('340282366920938463463374607431768211455') COMMENT 'Lowest event id of the session as a number (min() it); above event_hi when it has no event',
  `event_hi` SimpleAggregateFunction(max, UInt128) COMMENT 'Highest event id of the session as a number (max() it); 0 when it has no event',
  `has_transition` SimpleAggregateFunction(max, UInt8) COMMENT '1 when the session moved between platforms at least once (max() it)'
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(started_at)
ORDER BY (organization_id, started_at, session_id)
TTL toDateTime(last_seen) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'User journey (add-on): aggregate state per session, merged by the engine, ordered by the session''s start. Read with GROUP BY organization_id, session_id and the -Merge combinators, or through sessions_v1, which does that.';

CREATE TABLE IF NOT EXISTS click_series_1h
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the link',
  `link_type` Enum8('url' = 1, 'campaign' = 2) COMMENT 'url or campaign',
  `link_id` UInt64 COMMENT 'Id of the short URL or campaign',
  `bucket` DateTime('UTC') COMMENT 'Start of the hour, UTC',
  `clicks` UInt64 COMMENT 'Clicks by people in the hour; sum() it',
  `visitors` AggregateFunction(uniq, UInt64) COMMENT 'Distinct visitors in the hour, approximate (uniqMerge() it; a visitor is counted again on another UTC day)'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, link_type, link_id, bucket)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: clicks by people and distinct visitors per link per UTC hour. Exact for daily and hourly series only in zones whose UTC offset is whole hours over the period (not +5:30 or +5:45: use click_series_15m there). Read with sum(clicks) and GROUP BY.';

CREATE TABLE IF NOT EXISTS click_dims_1h
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the link',
  `link_type` Enum8('url' = 1, 'campaign' = 2) COMMENT 'url or campaign',
  `link_id` UInt64 COMMENT 'Id of the short URL or campaign',
  `bucket` DateTime('UTC') COMMENT 'Start of the hour, UTC',
  `dim` LowCardinality(String) COMMENT 'Dimension: country, device, os, browser, referrer, tracker, utm_source, utm_medium or utm_campaign',
  `value` String COMMENT 'Value of the dimension (country code, device type, host, ...); UTM dimensions leave out empty values',
  `clicks` UInt64 COMMENT 'Clicks by people with that value in the hour; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, link_type, link_id, bucket, dim, value)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: clicks by people per link per UTC hour per dimension value, as click_dims_15m. Exact for periods bounded at local midnights only in zones whose UTC offset is whole hours (use click_dims_15m for +5:30 or +5:45). Read with sum(clicks) WHERE dim = ... GROUP BY value.';

-- The install funnel per funnel session and 15-minute bucket: the highest of the four install
-- stages a session's events reached in the bucket. A period of whole buckets gives the same
-- furthest stage per session as the raw events, by a max() over its buckets; max is idempotent and
-- order-free, so a late stage, a batch delivered twice and any order of merges change nothing.
CREATE TABLE IF NOT EXISTS deeplink_funnel_sessions_15m
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the app and link',
  `app_id` UInt64 COMMENT 'Id of the mobile app (PostgreSQL apps.id)',
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'url, campaign, or none when the stage came without a link',
  `link_id` UInt64 COMMENT 'Id of the short URL or campaign (0 with none)',
  `bucket` DateTime('UTC') COMMENT 'Start of the 15-minute UTC bucket of the stage events',
  `platform` LowCardinality(String) COMMENT 'IOS, ANDROID, or empty when the stage came without one',
  `session_id` String COMMENT 'Funnel session (as in deeplink_funnel); never empty here',
  `furthest` SimpleAggregateFunction(max, UInt8) COMMENT 'Highest install stage the session''s events reached in the bucket: 1 CLICKED, 2 STORE_VISITED, 3 APP_INSTALLED, 4 APP_OPENED; max() it'
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, app_id, link_type, link_id, bucket, platform, session_id)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: furthest install-funnel stage (1 to 4) per funnel session per 15-minute UTC bucket, per app, link and platform. A session''s furthest stage over a period is max(furthest) GROUP BY session_id over the period''s buckets; exact in every time zone. Stages 5 and 6 (deep link resolved, goal) are not here: read deeplink_funnel.';

CREATE TABLE IF NOT EXISTS deeplink_first_launches_15m
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the app',
  `app_id` UInt64 COMMENT 'Id of the mobile app (PostgreSQL apps.id)',
  `bucket` DateTime('UTC') COMMENT 'Start of the 15-minute bucket, UTC',
  `matched` UInt8 COMMENT '1 when the first launch found its click, else 0',
  `match_type` LowCardinality(String) COMMENT 'How it matched (referrer, clipboard, fingerprint, ...); empty when not matched',
  `failure_reason` LowCardinality(String) COMMENT 'Why it did not match (as deeplink_resolutions.failure_reason); empty when matched',
  `confidence_decile` UInt8 COMMENT 'Match confidence in tens: 0 for 0 to 9 ... 9 for 90 to 100',
  `launches` UInt64 COMMENT 'First launches with these values in the bucket; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, app_id, bucket, matched, match_type, failure_reason, confidence_decile)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: first launches (deep-link resolutions that were not re-engagements) per app per 15-minute UTC bucket, by outcome, match type, failure reason and confidence decile. Exact in every zone. Read with sum(launches) and GROUP BY.';

CREATE TABLE IF NOT EXISTS deeplink_first_launches_1h
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the app',
  `app_id` UInt64 COMMENT 'Id of the mobile app (PostgreSQL apps.id)',
  `bucket` DateTime('UTC') COMMENT 'Start of the hour, UTC',
  `matched` UInt8 COMMENT '1 when the first launch found its click, else 0',
  `match_type` LowCardinality(String) COMMENT 'How it matched (referrer, clipboard, fingerprint, ...); empty when not matched',
  `failure_reason` LowCardinality(String) COMMENT 'Why it did not match (as deeplink_resolutions.failure_reason); empty when matched',
  `confidence_decile` UInt8 COMMENT 'Match confidence in tens: 0 for 0 to 9 ... 9 for 90 to 100',
  `launches` UInt64 COMMENT 'First launches with these values in the hour; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, app_id, bucket, matched, match_type, failure_reason, confidence_decile)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: deeplink_first_launches_15m per UTC hour. Exact for local days only in zones whose UTC offset is whole hours over the period (not +5:30 or +5:45: use deeplink_first_launches_15m there). Read with sum(launches) and GROUP BY.';

CREATE TABLE IF NOT EXISTS app_installs_15m
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the app',
  `app_id` UInt64 COMMENT 'Id of the mobile app (PostgreSQL apps.id)',
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'url or campaign the installs are attributed to; none for organic ones',
  `link_id` UInt64 COMMENT 'Id of the short URL or campaign (0 with none)',
  `bucket` DateTime('UTC') COMMENT 'Start of the 15-minute bucket, UTC',
  `platform` LowCardinality(String) COMMENT 'IOS or ANDROID',
  `country` LowCardinality(String) COMMENT 'Country code of the install (ISO 3166-1 alpha-2); empty when unknown',
  `match_type` LowCardinality(String) COMMENT 'How the install was attributed: referrer, fingerprint, clipboard or organic',
  `installs` UInt64 COMMENT 'Installs with these values in the bucket; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, app_id, link_type, link_id, bucket, platform, country, match_type)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: installs (first launches) per app, link, platform, country and match type per 15-minute UTC bucket. Exact in every zone. Read with sum(installs) and GROUP BY.';

CREATE TABLE IF NOT EXISTS app_installs_1h
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the app',
  `app_id` UInt64 COMMENT 'Id of the mobile app (PostgreSQL apps.id)',
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'url or campaign the installs are attributed to; none for organic ones',
  `link_id` UInt64 COMMENT 'Id of the short URL or campaign (0 with none)',
  `bucket` DateTime('UTC') COMMENT 'Start of the hour, UTC',
  `platform` LowCardinality(String) COMMENT 'IOS or ANDROID',
  `country` LowCardinality(String) COMMENT 'Country code of the install (ISO 3166-1 alpha-2); empty when unknown',
  `match_type` LowCardinality(String) COMMENT 'How the install was attributed: referrer, fingerprint, clipboard or organic',
  `installs` UInt64 COMMENT 'Installs with these values in the bucket; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, app_id, link_type, link_id, bucket, platform, country, match_type)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: app_installs_15m per UTC hour. Exact for local days only in zones whose UTC offset is whole hours over the period (not +5:30 or +5:45: use app_installs_15m there). Read with sum(installs) and GROUP BY.';

CREATE TABLE IF NOT EXISTS deeplink_attempts_15m
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the app',
  `app_id` UInt64 COMMENT 'Id of the mobile app (PostgreSQL apps.id)',
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'url or campaign the attempt resolved to; none when it resolved to none',
  `link_id` UInt64 COMMENT 'Id of the short URL or campaign (0 with none)',
  `bucket` DateTime('UTC') COMMENT 'Start of the 15-minute bucket, UTC',
  `platform` LowCardinality(String) COMMENT 'IOS, ANDROID, or empty when the app sent none',
  `method` LowCardinality(String) COMMENT 'How it was resolved: token, referrer, fingerprint, shorturl, campaign',
  `matched` UInt8 COMMENT '1 when it found its link, else 0',
  `failure_reason` LowCardinality(String) COMMENT 'Why it did not match (as deeplink_resolutions.failure_reason); empty when matched',
  `reengagement` UInt8 COMMENT '1 for an open of an installed app from a link, 0 for a first launch',
  `attempts` UInt64 COMMENT 'Attempts with these values in the bucket; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, app_id, link_type, link_id, bucket, platform, method, matched, failure_reason, reengagement)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: deep-link resolution attempts per app, link, platform, method, outcome, failure reason and re-engagement per 15-minute UTC bucket. Exact in every zone. Read with sum(attempts) and GROUP BY.';

CREATE TABLE IF NOT EXISTS deeplink_attempts_1h
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the app',
  `app_id` UInt64 COMMENT 'Id of the mobile app (PostgreSQL apps.id)',
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2) COMMENT 'url or campaign the attempt resolved to; none when it resolved to none',
  `link_id` UInt64 COMMENT 'Id of the short URL or campaign (0 with none)',
  `bucket` DateTime('UTC') COMMENT 'Start of the hour, UTC',
  `platform` LowCardinality(String) COMMENT 'IOS, ANDROID, or empty when the app sent none',
  `method` LowCardinality(String) COMMENT 'How it was resolved: token, referrer, fingerprint, shorturl, campaign',
  `matched` UInt8 COMMENT '1 when it found its link, else 0',
  `failure_reason` LowCardinality(String) COMMENT 'Why it did not match (as deeplink_resolutions.failure_reason); empty when matched',
  `reengagement` UInt8 COMMENT '1 for an open of an installed app from a link, 0 for a first launch',
  `attempts` UInt64 COMMENT 'Attempts with these values in the bucket; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, app_id, link_type, link_id, bucket, platform, method, matched, failure_reason, reengagement)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: deeplink_attempts_15m per UTC hour. Exact for local days only in zones whose UTC offset is whole hours over the period (not +5:30 or +5:45: use deeplink_attempts_15m there). Read with sum(attempts) and GROUP BY.';

-- Clicks per campaign cid: whole UTC days of a period from the daily rollup, the partial days at
-- its ends from the 15-minute one (src/olap/click-rollup.ts, utcDaySplit), exact in every zone.
CREATE TABLE IF NOT EXISTS click_cids_15m
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the link',
  `link_type` Enum8('url' = 1, 'campaign' = 2) COMMENT 'url or campaign (only campaign clicks carry a cid)',
  `link_id` UInt64 COMMENT 'Id of the campaign (or short URL)',
  `bucket` DateTime('UTC') COMMENT 'Start of the 15-minute bucket, UTC',
  `cid` String COMMENT 'User tracking id (cid) the click carried; never empty here',
  `clicks` UInt64 COMMENT 'Clicks by people with that cid in the bucket; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(bucket)
ORDER BY (organization_id, link_type, link_id, bucket, cid)
TTL bucket + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: clicks by people per link per cid per 15-minute UTC bucket (clicks with a cid only). Exact for any period in any zone. Read with sum(clicks) GROUP BY cid.';

CREATE TABLE IF NOT EXISTS click_cids_1d
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the link',
  `link_type` Enum8('url' = 1, 'campaign' = 2) COMMENT 'url or campaign (only campaign clicks carry a cid)',
  `link_id` UInt64 COMMENT 'Id of the campaign (or short URL)',
  `day` Date COMMENT 'UTC day of the clicks (from 00:00 to 24:00 UTC, not a local day)',
  `cid` String COMMENT 'User tracking id (cid) the click carried; never empty here',
  `clicks` UInt64 COMMENT 'Clicks by people with that cid on the UTC day; sum() it'
)
ENGINE = SummingMergeTree
PARTITION BY toYYYYMM(day)
ORDER BY (organization_id, link_type, link_id, day, cid)
TTL day + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Rollup: clicks by people per link per cid per UTC day (clicks with a cid only). A local day of any zone other than UTC straddles two UTC days: read whole UTC days from here and the partial ones at the ends of the period from click_cids_15m. Read with sum(clicks) GROUP BY cid.';

-- Which bus messages each insert of the OLAP writer carried, recorded before its rows go in. An
-- insert into an event table writes its rollups through materialized views, not in one
-- transaction with the raw rows: after a crash between the two the bus delivers the messages
-- again, and a group found here whose messages are all back is inserted again exactly as before,
-- under the same deduplication token, with deduplicate_blocks_in_dependent_materialized_views: the
-- engine drops what each table holds and writes what it lacks.
CREATE TABLE IF NOT EXISTS writer_insert_groups
(
  `recorded_at` DateTime64(3, 'UTC') DEFAULT now64(3) COMMENT 'When the writer recorded the group, just before its inserts (UTC).',
  `message_ids` Array(String) COMMENT 'The bus message ids of the group, in the order the insert''s deduplication token is made from.',
  `left_out` Array(String) COMMENT 'Event ids of redelivered messages that the insert left out, found written already (usually empty): inserted again, the group leaves them out too.'
)
ENGINE = MergeTree
ORDER BY recorded_at
TTL toDateTime(recorded_at) + INTERVAL 1 DAY
COMMENT 'Internal: the bus messages of each insert of the OLAP writer, kept a day so a redelivered group can be inserted again under its token. Not for analysis.';

-- Stable views for readers outside the service (analysts, BI tools, data pipelines): their names,
-- columns and types stay as they are while the tables behind them change; a change that cannot
-- keep them comes as a _v2 beside them. Plain types (String rather than LowCardinality or Enum),
-- times in UTC, no IP addresses or raw user agents. test/clickhouse-data-teams.test.ts pins each
-- one. The journey views read FINAL: those tables collapse a repeated event id only when their
-- parts merge.
CREATE VIEW IF NOT EXISTS clicks_v1
(
  `event_id` UUID,
  `ts` DateTime64(3, 'UTC'),
  `organization_id` UInt64,
  `link_type` String,
  `link_id` UInt64,
  `host` String,
  `cid` String,
  `tracker` String,
  `referrer_host` String,
  `utm_source` String,
  `utm_medium` String,
  `utm_campaign` String,
  `utm_term` String,
  `utm_content` String,
  `country` String,
  `device_type` String,
  `os` String,
  `os_version` String,
  `browser` String,
  `accept_language` String,
  `is_bot` UInt8,
  `source` String
)
COMMENT 'Stable: every click, people and bots (is_bot 1). UTC times. No IP address or user agent. Count people with WHERE is_bot = 0.'
AS SELECT
  event_id,
  ts,
  organization_id,
  CAST(link_type, 'String') AS link_type,
  link_id,
  CAST(host, 'String') AS host,
  cid,
  CAST(tracker, 'String') AS tracker,
  CAST(referrer_host, 'String') AS referrer_host,
  CAST(utm_source, 'String') AS utm_source,
  CAST(utm_medium, 'String') AS utm_medium,
  CAST(utm_campaign, 'String') AS utm_campaign,
  utm_term,
  utm_content,
  CAST(country, 'String') AS country,
  CAST(device_type, 'String') AS device_type,
  CAST(os, 'String') AS os,
  CAST(os_version, 'String') AS os_version,
  CAST(browser, 'String') AS browser,
  CAST(accept_language, 'String') AS accept_language,
  is_bot,
  if(source = '', 'redirect', CAST(source, 'String')) AS source
FROM clicks;

CREATE VIEW IF NOT EXISTS installs_v1
(
  `event_id` UUID,
  `ts` DateTime64(3, 'UTC'),
  `organization_id` UInt64,
  `app_id` UInt64,
  `platform` String,
  `link_type` String,
  `link_id` UInt64,
  `match_type` String,
  `confidence` UInt8,
  `country` String,
  `os_version` String
)
COMMENT 'Stable: every app install (first launch), its attribution (link, match_type) or organic. UTC times.'
AS SELECT
  event_id,
  ts,
  organization_id,
  app_id,
  CAST(platform, 'String') AS platform,
  CAST(link_type, 'String') AS link_type,
  link_id,
  CAST(match_type, 'String') AS match_type,
  confidence,
  CAST(country, 'String') AS country,
  CAST(os_version, 'String') AS os_version
FROM app_installs;

CREATE VIEW IF NOT EXISTS funnel_events_v1
(
  `event_id` UUID,
  `ts` DateTime64(3, 'UTC'),
  `organization_id` UInt64,
  `app_id` UInt64,
  `platform` String,
  `session_id` String,
  `stage` String,
  `stage_number` UInt8,
  `link_type` String,
  `link_id` UInt64,
  `goal_type` String,
  `goal_value` Float64,
  `currency` String,
  `device_type` String,
  `external_user_id` String,
  `source` String,
  `goal_text` String
)
COMMENT 'Stable: the mobile deep-link funnel, one row per stage reached; GOAL_COMPLETED rows carry goal_value in currency (revenue for PURCHASE), or goal_text when the app sent a value that is not a number. UTC times.'
AS SELECT
  event_id,
  ts,
  organization_id,
  app_id,
  CAST(platform, 'String') AS platform,
  session_id,
  CAST(stage, 'String') AS stage,
  CAST(deeplink_funnel.stage, 'UInt8') AS stage_number,
  CAST(link_type, 'String') AS link_type,
  link_id,
  CAST(goal_type, 'String') AS goal_type,
  goal_value,
  CAST(currency, 'String') AS currency,
  CAST(device_type, 'String') AS device_type,
  external_user_id,
  CAST(source, 'String') AS source,
  goal_text
FROM deeplink_funnel;

CREATE VIEW IF NOT EXISTS sessions_v1
(
  `organization_id` UInt64,
  `session_id` String,
  `started_at` DateTime64(3, 'UTC'),
  `last_seen_at` DateTime64(3, 'UTC'),
  `duration_seconds` Float64,
  `app_id` UInt64,
  `platform` String,
  `utm_source` String,
  `utm_medium` String,
  `utm_campaign` String,
  `external_user_id` String,
  `events` UInt64,
  `transitions` UInt64,
  `funnel_stage_reached` UInt8,
  `goals` UInt64
)
COMMENT 'Stable: one row per user-journey session (add-on) with its start, last activity, length, source and counts. UTC times.'
AS SELECT
  organization_id,
  session_id,
  toDateTime64(min(first_seen), 3, 'UTC') AS started_at,
  toDateTime64(max(last_seen), 3, 'UTC') AS last_seen_at,
  toFloat64(dateDiff('millisecond', started_at, last_seen_at)) / 1000 AS duration_seconds,
  toUInt64(max(app_id)) AS app_id,
  CAST(max(platform), 'String') AS platform,
  CAST(max(utm_source), 'String') AS utm_source,
  CAST(max(utm_medium), 'String') AS utm_medium,
  CAST(max(utm_campaign), 'String') AS utm_campaign,
  substring(max(latest_user), 16) AS external_user_id,
  toUInt64(uniqExactMerge(events)) AS events,
  toUInt64(uniqExactMerge(transitions)) AS transitions,
  toUInt8(max(max_stage)) AS funnel_stage_reached,
  toUInt64(uniqExactMerge(goals)) AS goals
FROM journey_sessions
GROUP BY
  organization_id,
  session_id;

CREATE VIEW IF NOT EXISTS journey_events_v1
(
  `event_id` UUID,
  `ts` DateTime64(3, 'UTC'),
  `organization_id` UInt64,
  `app_id` UInt64,
  `session_id` String,
  `platform` String,
  `event_type` String,
  `properties` String,
  `external_user_id` String
)
COMMENT 'Stable: user-journey events (add-on), each once. properties is JSON text. UTC times.'
AS SELECT
  event_id,
  ts,
  organization_id,
  app_id,
  session_id,
  CAST(platform, 'String') AS platform,
  CAST(event_type, 'String') AS event_type,
  properties,
  external_user_id
FROM journey_events
FINAL;

CREATE VIEW IF NOT EXISTS transitions_v1
(
  `event_id` UUID,
  `ts` DateTime64(3, 'UTC'),
  `organization_id` UInt64,
  `app_id` UInt64,
  `session_id` String,
  `from_platform` String,
  `to_platform` String,
  `target_session_id` String,
  `link_type` String,
  `link_id` UInt64,
  `external_user_id` String
)
COMMENT 'Stable: user-journey moves between platforms (add-on), each once. UTC times.'
AS SELECT
  event_id,
  ts,
  organization_id,
  app_id,
  session_id,
  CAST(from_platform, 'String') AS from_platform,
  CAST(to_platform, 'String') AS to_platform,
  target_session_id,
  CAST(link_type, 'String') AS link_type,
  link_id,
  external_user_id
FROM journey_transitions
FINAL;

-- The views that feed the rollups from each insert into a raw table. A view's comment is given in
-- its CREATE, never set later by ALTER: an altered view derives other deduplication tokens for its
-- inserts until the engine loads it again (test/clickhouse-view-reload.test.ts).
CREATE MATERIALIZED VIEW IF NOT EXISTS link_click_totals_mv TO link_click_totals
(
  `organization_id` UInt64,
  `link_type` Enum8('url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `clicks` UInt64
)
COMMENT 'Feeds link_click_totals from each insert into clicks. Internal.'
AS SELECT
  organization_id,
  link_type,
  link_id,
  count() AS clicks
FROM clicks
WHERE is_bot = 0
GROUP BY
  organization_id,
  link_type,
  link_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS click_series_15m_mv TO click_series_15m
(
  `organization_id` UInt64,
  `link_type` Enum8('url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `clicks` UInt64,
  `visitors` AggregateFunction(uniq, UInt64)
)
COMMENT 'Feeds click_series_15m (clicks and distinct visitors) from each insert into clicks. Internal.'
AS SELECT
  organization_id,
  link_type,
  link_id,
  toStartOfFifteenMinutes(ts) AS bucket,
  count() AS clicks,
  uniqStateIf(visitor_hash, visitor_hash != 0) AS visitors
FROM clicks
WHERE is_bot = 0
GROUP BY
  organization_id,
  link_type,
  link_id,
  bucket;

CREATE MATERIALIZED VIEW IF NOT EXISTS click_dims_15m_mv TO click_dims_15m
(
  `organization_id` UInt64,
  `link_type` Enum8('url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `dim` String,
  `value` LowCardinality(String),
  `clicks` UInt64
)
COMMENT 'Feeds click_dims_15m (country, device, os, browser, referrer, tracker) from each insert into clicks. Internal.'
AS SELECT
  organization_id,
  link_type,
  link_id,
  toStartOfFifteenMinutes(ts) AS bucket,
  pair.1 AS dim,
  pair.2 AS value,
  count() AS clicks
FROM clicks
ARRAY JOIN [('country', toString(country)), ('device', toString(device_type)), ('os', toString(os)), ('browser', toString(browser)), ('referrer', toString(referrer_host)), ('tracker', toString(tracker))] AS pair
WHERE is_bot = 0
GROUP BY
  organization_id,
  link_type,
  link_id,
  bucket,
  dim,
  value;

CREATE MATERIALIZED VIEW IF NOT EXISTS click_utm_15m_mv TO click_dims_15m
(
  `organization_id` UInt64,
  `link_type` Enum8('url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `dim` String,
  `value` LowCardinality(String),
  `clicks` UInt64
)
COMMENT 'Feeds click_dims_15m (utm_source, utm_medium, utm_campaign) from each insert into clicks. Internal.'
AS SELECT
  organization_id,
  link_type,
  link_id,
  toStartOfFifteenMinutes(ts) AS bucket,
  pair.1 AS dim,
  pair.2 AS value,
  count() AS clicks
FROM clicks
ARRAY JOIN [('utm_source', toString(utm_source)), ('utm_medium', toString(utm_medium)), ('utm_campaign', toString(utm_campaign))] AS pair
WHERE (is_bot = 0) AND ((pair.2) != '')
GROUP BY
  organization_id,
  link_type,
  link_id,
  bucket,
  dim,
  value;

CREATE MATERIALIZED VIEW IF NOT EXISTS journey_sessions_starts_mv TO journey_sessions
(
  `organization_id` UInt64,
  `started_at` DateTime64(3, 'UTC'),
  `session_id` String,
  `first_seen` DateTime64(3, 'UTC'),
  `last_seen` DateTime64(3, 'UTC'),
  `app_id` UInt64,
  `platform` String,
  `utm_source` String,
  `utm_medium` String,
  `utm_campaign` String,
  `latest_user` String
)
COMMENT 'Feeds journey_sessions from journey_session_starts. Internal.'
AS SELECT
  organization_id,
  fromUnixTimestamp64Milli(reinterpretAsInt64(reverse(unhex(concat('0000', substring(replaceAll(session_id, '-', ''), 1, 12))))), 'UTC') AS started_at,
  session_id,
  min(ts) AS first_seen,
  max(ts) AS last_seen,
  max(app_id) AS app_id,
  max(toString(platform)) AS platform,
  max(toString(utm_source)) AS utm_source,
  max(toString(utm_medium)) AS utm_medium,
  max(toString(utm_campaign)) AS utm_campaign,
  max(if(external_user_id = '', '', concat(leftPad(toString(toUnixTimestamp64Milli(ts)), 15, '0'), external_user_id))) AS latest_user
FROM journey_session_starts
GROUP BY
  organization_id,
  session_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS journey_sessions_events_mv TO journey_sessions
(
  `organization_id` UInt64,
  `started_at` DateTime64(3, 'UTC'),
  `session_id` String,
  `first_seen` DateTime64(3, 'UTC'),
  `last_seen` DateTime64(3, 'UTC'),
  `app_id` UInt64,
  `platform` String,
  `latest_user` String,
  `events` AggregateFunction(uniqExact, UUID),
  `event_lo` UInt128,
  `event_hi` UInt128
)
COMMENT 'Feeds journey_sessions from journey_events. Internal.'
AS SELECT
  organization_id,
  fromUnixTimestamp64Milli(reinterpretAsInt64(reverse(unhex(concat('0000', substring(replaceAll(session_id, '-', ''), 1, 12))))), 'UTC') AS started_at,
  session_id,
  min(ts) AS first_seen,
  max(ts) AS last_seen,
  max(app_id) AS app_id,
  max(toString(platform)) AS platform,
  max(if(external_user_id = '', '', concat(leftPad(toString(toUnixTimestamp64Milli(ts)), 15, '0'), external_user_id))) AS latest_user,
  uniqExactState(event_id) AS events,
  min(toUInt128(event_id)) AS event_lo,
  max(toUInt128(event_id)) AS event_hi
FROM journey_events
GROUP BY
  organization_id,
  session_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS journey_sessions_transitions_mv TO journey_sessions
(
  `organization_id` UInt64,
  `started_at` DateTime64(3, 'UTC'),
  `session_id` String,
  `first_seen` DateTime64(3, 'UTC'),
  `last_seen` DateTime64(3, 'UTC'),
  `app_id` UInt64,
  `latest_user` String,
  `transitions` AggregateFunction(uniqExact, UUID),
  `has_transition` UInt8
)
COMMENT 'Feeds journey_sessions from journey_transitions. Internal.'
AS SELECT
  organization_id,
  fromUnixTimestamp64Milli(reinterpretAsInt64(reverse(unhex(concat('0000', substring(replaceAll(session_id, '-', ''), 1, 12))))), 'UTC') AS started_at,
  session_id,
  min(ts) AS first_seen,
  max(ts) AS last_seen,
  max(app_id) AS app_id,
  max(if(external_user_id = '', '', concat(leftPad(toString(toUnixTimestamp64Milli(ts)), 15, '0'), external_user_id))) AS latest_user,
  uniqExactState(event_id) AS transitions,
  toUInt8(1) AS has_transition
FROM journey_transitions
GROUP BY
  organization_id,
  session_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS journey_sessions_funnel_mv TO journey_sessions
(
  `organization_id` UInt64,
  `started_at` DateTime64(3, 'UTC'),
  `session_id` String,
  `first_seen` DateTime64(3, 'UTC'),
  `last_seen` DateTime64(3, 'UTC'),
  `app_id` UInt64,
  `platform` String,
  `latest_user` String,
  `max_stage` UInt8,
  `goals` AggregateFunction(uniqExact, UUID)
)
COMMENT 'Feeds journey_sessions from journey_funnel. Internal.'
AS SELECT
  organization_id,
  fromUnixTimestamp64Milli(reinterpretAsInt64(reverse(unhex(concat('0000', substring(replaceAll(session_id, '-', ''), 1, 12))))), 'UTC') AS started_at,
  session_id,
  min(ts) AS first_seen,
  max(ts) AS last_seen,
  max(app_id) AS app_id,
  max(toString(platform)) AS platform,
  max(if(external_user_id = '', '', concat(leftPad(toString(toUnixTimestamp64Milli(ts)), 15, '0'), external_user_id))) AS latest_user,
  max(CAST(stage, 'UInt8')) AS max_stage,
  uniqExactStateIf(event_id, stage = 'GOAL_COMPLETED') AS goals
FROM journey_funnel
GROUP BY
  organization_id,
  session_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS click_series_1h_mv TO click_series_1h
(
  `organization_id` UInt64,
  `link_type` Enum8('url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `clicks` UInt64,
  `visitors` AggregateFunction(uniq, UInt64)
)
COMMENT 'Feeds click_series_1h (clicks and distinct visitors) from each insert into clicks. Internal.'
AS SELECT
  organization_id,
  link_type,
  link_id,
  toStartOfHour(ts) AS bucket,
  count() AS clicks,
  uniqStateIf(visitor_hash, visitor_hash != 0) AS visitors
FROM clicks
WHERE is_bot = 0
GROUP BY
  organization_id,
  link_type,
  link_id,
  bucket;

CREATE MATERIALIZED VIEW IF NOT EXISTS click_dims_1h_mv TO click_dims_1h
(
  `organization_id` UInt64,
  `link_type` Enum8('url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `dim` String,
  `value` LowCardinality(String),
  `clicks` UInt64
)
COMMENT 'Feeds click_dims_1h (every dimension of click_dims_15m) from each insert into clicks. Internal.'
AS SELECT
  organization_id,
  link_type,
  link_id,
  toStartOfHour(ts) AS bucket,
  pair.1 AS dim,
  pair.2 AS value,
  count() AS clicks
FROM clicks
ARRAY JOIN [('country', toString(country)), ('device', toString(device_type)), ('os', toString(os)), ('browser', toString(browser)), ('referrer', toString(referrer_host)), ('tracker', toString(tracker)), ('utm_source', toString(utm_source)), ('utm_medium', toString(utm_medium)), ('utm_campaign', toString(utm_campaign))] AS pair
WHERE (is_bot = 0) AND (((pair.2) != '') OR ((pair.1) NOT IN ('utm_source', 'utm_medium', 'utm_campaign')))
GROUP BY
  organization_id,
  link_type,
  link_id,
  bucket,
  dim,
  value;

CREATE MATERIALIZED VIEW IF NOT EXISTS deeplink_funnel_sessions_15m_mv TO deeplink_funnel_sessions_15m
(
  `organization_id` UInt64,
  `app_id` UInt64,
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `platform` LowCardinality(String),
  `session_id` String,
  `furthest` UInt8
)
COMMENT 'Feeds deeplink_funnel_sessions_15m from each insert into deeplink_funnel. Internal.'
AS SELECT
  organization_id,
  app_id,
  link_type,
  link_id,
  toStartOfFifteenMinutes(ts) AS bucket,
  platform,
  session_id,
  max(toUInt8(stage)) AS furthest
FROM deeplink_funnel
WHERE (session_id != '') AND (toUInt8(stage) <= 4)
GROUP BY
  organization_id,
  app_id,
  link_type,
  link_id,
  bucket,
  platform,
  session_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS deeplink_first_launches_15m_mv TO deeplink_first_launches_15m
(
  `organization_id` UInt64,
  `app_id` UInt64,
  `bucket` DateTime('UTC'),
  `matched` UInt8,
  `match_type` LowCardinality(String),
  `failure_reason` LowCardinality(String),
  `confidence_decile` UInt8,
  `launches` UInt64
)
COMMENT 'Feeds deeplink_first_launches_15m from each insert into deeplink_resolutions. Internal.'
AS SELECT
  organization_id,
  app_id,
  toStartOfFifteenMinutes(ts) AS bucket,
  matched,
  match_type,
  failure_reason,
  least(intDiv(confidence, 10), 9) AS confidence_decile,
  count() AS launches
FROM deeplink_resolutions
WHERE reengagement = 0
GROUP BY
  organization_id,
  app_id,
  bucket,
  matched,
  match_type,
  failure_reason,
  confidence_decile;

CREATE MATERIALIZED VIEW IF NOT EXISTS deeplink_first_launches_1h_mv TO deeplink_first_launches_1h
(
  `organization_id` UInt64,
  `app_id` UInt64,
  `bucket` DateTime('UTC'),
  `matched` UInt8,
  `match_type` LowCardinality(String),
  `failure_reason` LowCardinality(String),
  `confidence_decile` UInt8,
  `launches` UInt64
)
COMMENT 'Feeds deeplink_first_launches_1h from each insert into deeplink_resolutions. Internal.'
AS SELECT
  organization_id,
  app_id,
  toStartOfHour(ts) AS bucket,
  matched,
  match_type,
  failure_reason,
  least(intDiv(confidence, 10), 9) AS confidence_decile,
  count() AS launches
FROM deeplink_resolutions
WHERE reengagement = 0
GROUP BY
  organization_id,
  app_id,
  bucket,
  matched,
  match_type,
  failure_reason,
  confidence_decile;

CREATE MATERIALIZED VIEW IF NOT EXISTS app_installs_15m_mv TO app_installs_15m
(
  `organization_id` UInt64,
  `app_id` UInt64,
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `platform` LowCardinality(String),
  `country` LowCardinality(String),
  `match_type` LowCardinality(String),
  `installs` UInt64
)
COMMENT 'Feeds app_installs_15m from each insert into app_installs. Internal.'
AS SELECT
  organization_id,
  app_id,
  link_type,
  link_id,
  toStartOfFifteenMinutes(ts) AS bucket,
  platform,
  country,
  match_type,
  count() AS installs
FROM app_installs
GROUP BY
  organization_id,
  app_id,
  link_type,
  link_id,
  bucket,
  platform,
  country,
  match_type;

CREATE MATERIALIZED VIEW IF NOT EXISTS app_installs_1h_mv TO app_installs_1h
(
  `organization_id` UInt64,
  `app_id` UInt64,
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `platform` LowCardinality(String),
  `country` LowCardinality(String),
  `match_type` LowCardinality(String),
  `installs` UInt64
)
COMMENT 'Feeds app_installs_1h from each insert into app_installs. Internal.'
AS SELECT
  organization_id,
  app_id,
  link_type,
  link_id,
  toStartOfHour(ts) AS bucket,
  platform,
  country,
  match_type,
  count() AS installs
FROM app_installs
GROUP BY
  organization_id,
  app_id,
  link_type,
  link_id,
  bucket,
  platform,
  country,
  match_type;

CREATE MATERIALIZED VIEW IF NOT EXISTS deeplink_attempts_15m_mv TO deeplink_attempts_15m
(
  `organization_id` UInt64,
  `app_id` UInt64,
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `platform` LowCardinality(String),
  `method` LowCardinality(String),
  `matched` UInt8,
  `failure_reason` LowCardinality(String),
  `reengagement` UInt8,
  `attempts` UInt64
)
COMMENT 'Feeds deeplink_attempts_15m from each insert into deeplink_resolutions. Internal.'
AS SELECT
  organization_id,
  app_id,
  link_type,
  link_id,
  toStartOfFifteenMinutes(ts) AS bucket,
  platform,
  method,
  matched,
  failure_reason,
  reengagement,
  count() AS attempts
FROM deeplink_resolutions
GROUP BY
  organization_id,
  app_id,
  link_type,
  link_id,
  bucket,
  platform,
  method,
  matched,
  failure_reason,
  reengagement;

CREATE MATERIALIZED VIEW IF NOT EXISTS deeplink_attempts_1h_mv TO deeplink_attempts_1h
(
  `organization_id` UInt64,
  `app_id` UInt64,
  `link_type` Enum8('none' = 0, 'url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `platform` LowCardinality(String),
  `method` LowCardinality(String),
  `matched` UInt8,
  `failure_reason` LowCardinality(String),
  `reengagement` UInt8,
  `attempts` UInt64
)
COMMENT 'Feeds deeplink_attempts_1h from each insert into deeplink_resolutions. Internal.'
AS SELECT
  organization_id,
  app_id,
  link_type,
  link_id,
  toStartOfHour(ts) AS bucket,
  platform,
  method,
  matched,
  failure_reason,
  reengagement,
  count() AS attempts
FROM deeplink_resolutions
GROUP BY
  organization_id,
  app_id,
  link_type,
  link_id,
  bucket,
  platform,
  method,
  matched,
  failure_reason,
  reengagement;

CREATE MATERIALIZED VIEW IF NOT EXISTS click_cids_15m_mv TO click_cids_15m
(
  `organization_id` UInt64,
  `link_type` Enum8('url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `cid` String,
  `clicks` UInt64
)
COMMENT 'Feeds click_cids_15m (clicks per cid) from each insert into clicks. Internal.'
AS SELECT
  organization_id,
  link_type,
  link_id,
  toStartOfFifteenMinutes(ts) AS bucket,
  cid,
  count() AS clicks
FROM clicks
WHERE (is_bot = 0) AND (cid != '')
GROUP BY
  organization_id,
  link_type,
  link_id,
  bucket,
  cid;

CREATE MATERIALIZED VIEW IF NOT EXISTS click_cids_1d_mv TO click_cids_1d
(
  `organization_id` UInt64,
  `link_type` Enum8('url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `day` Date,
  `cid` String,
  `clicks` UInt64
)
COMMENT 'Feeds click_cids_1d (clicks per cid per UTC day) from each insert into clicks. Internal.'
AS SELECT
  organization_id,
  link_type,
  link_id,
  toDate(ts, 'UTC') AS day,
  cid,
  count() AS clicks
FROM clicks
WHERE (is_bot = 0) AND (cid != '')
GROUP BY
  organization_id,
  link_type,
  link_id,
  day,
  cid;
