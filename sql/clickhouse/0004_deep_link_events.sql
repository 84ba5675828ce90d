-- Deep-link events: the mobile funnel, every resolution attempt (deterministic or fingerprint,
-- matched or not, with the reason), and app installs (first launches, attributed to a link or
-- organic). App-install statistics read these three; volumes are installs and attempts, orders of
-- magnitude below clicks, so they are queried raw.

CREATE TABLE IF NOT EXISTS deeplink_funnel (
  event_id UUID,
  ts DateTime64(3, 'UTC'),
  organization_id UInt64,
  app_id UInt64,
  -- IOS, ANDROID or '' when the stage came without one
  platform LowCardinality(String),
  session_id String,
  stage Enum8('CLICKED' = 1, 'STORE_VISITED' = 2, 'APP_INSTALLED' = 3, 'APP_OPENED' = 4, 'DEEP_LINK_RESOLVED' = 5, 'GOAL_COMPLETED' = 6),
  link_type Enum8('none' = 0, 'url' = 1, 'campaign' = 2),
  link_id UInt64,
  goal_type LowCardinality(String),
  goal_value Float64,
  currency LowCardinality(String),
  device_type LowCardinality(String),
  external_user_id String,
  -- landing (the landing page), server (a resolution), sdk (funnel/track)
  source LowCardinality(String),
  ingested_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, app_id, ts, event_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000;

CREATE TABLE IF NOT EXISTS deeplink_resolutions (
  event_id UUID,
  ts DateTime64(3, 'UTC'),
  organization_id UInt64,
  app_id UInt64,
  platform LowCardinality(String),
  -- token (deeplink/match), referrer, fingerprint, shorturl, campaign
  method LowCardinality(String),
  matched UInt8,
  -- referrer, fingerprint, token, direct; '' when not matched
  match_type LowCardinality(String),
  confidence UInt8,
  -- '' when matched; else expired_token, unknown_token, no_candidate, below_threshold, ...
  failure_reason LowCardinality(String),
  link_type Enum8('none' = 0, 'url' = 1, 'campaign' = 2),
  link_id UInt64,
  -- 1 when the app was already installed (an open from a link), 0 for a first launch
  reengagement UInt8,
  -- who, without PII: the external user id when known, else a hash of device signals
  user_key String,
  ingested_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, app_id, ts, event_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000;

CREATE TABLE IF NOT EXISTS app_installs (
  event_id UUID,
  ts DateTime64(3, 'UTC'),
  organization_id UInt64,
  app_id UInt64,
  platform LowCardinality(String),
  -- the link the install is attributed to; none for an organic install
  link_type Enum8('none' = 0, 'url' = 1, 'campaign' = 2),
  link_id UInt64,
  -- referrer, fingerprint, organic
  match_type LowCardinality(String),
  confidence UInt8,
  country LowCardinality(String),
  os_version LowCardinality(String),
  session_id String,
  ingested_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = MergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, app_id, ts, event_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000;
