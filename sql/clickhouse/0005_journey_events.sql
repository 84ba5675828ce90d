-- User journey: session starts, session events, platform transitions and web funnel stages, one
-- raw table each, plus one aggregate row set per session that statistics read.
--
-- Correct under redelivery and out-of-order arrival by construction, not by counting messages:
-- the raw tables are ReplacingMergeTrees keyed by event id (a client's repeated eventId and a
-- redelivered batch collapse; reads also count distinct event ids, so unmerged parts never show
-- twice), and journey_session_states keeps only idempotent, order-free aggregates per session
-- (min, max, argMax by time, uniqExact of event ids), so the same event applied twice, or late,
-- leaves every figure as it was.

CREATE TABLE IF NOT EXISTS journey_session_starts (
  event_id UUID,
  ts DateTime64(3, 'UTC'),
  organization_id UInt64,
  app_id UInt64,
  session_id String,
  platform LowCardinality(String),
  external_user_id String,
  utm_source LowCardinality(String),
  utm_medium LowCardinality(String),
  utm_campaign LowCardinality(String),
  referrer_host LowCardinality(String),
  link_type Enum8('none' = 0, 'url' = 1, 'campaign' = 2),
  link_id UInt64,
  ingested_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, session_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000;

CREATE TABLE IF NOT EXISTS journey_events (
  event_id UUID,
  ts DateTime64(3, 'UTC'),
  organization_id UInt64,
  app_id UInt64,
  session_id String,
  platform LowCardinality(String),
  event_type LowCardinality(String),
  -- the caller's properties object as JSON text
  properties String,
  external_user_id String,
  ingested_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, session_id, event_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000;

CREATE TABLE IF NOT EXISTS journey_transitions (
  event_id UUID,
  ts DateTime64(3, 'UTC'),
  organization_id UInt64,
  app_id UInt64,
  session_id String,
  from_platform LowCardinality(String),
  to_platform LowCardinality(String),
  -- the session on the destination platform, when the app already has one
  target_session_id String,
  link_type Enum8('none' = 0, 'url' = 1, 'campaign' = 2),
  link_id UInt64,
  deep_link_token String,
  external_user_id String,
  properties String,
  ingested_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, session_id, event_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000;

CREATE TABLE IF NOT EXISTS journey_funnel (
  event_id UUID,
  ts DateTime64(3, 'UTC'),
  organization_id UInt64,
  app_id UInt64,
  session_id String,
  platform LowCardinality(String),
  stage Enum8('CLICKED' = 1, 'DEEP_LINK_RESOLVED' = 2, 'CONTENT_VIEWED' = 3, 'ACTION_TAKEN' = 4, 'GOAL_COMPLETED' = 5),
  goal_type LowCardinality(String),
  goal_value Float64,
  currency LowCardinality(String),
  transaction_id String,
  link_type Enum8('none' = 0, 'url' = 1, 'campaign' = 2),
  link_id UInt64,
  external_user_id String,
  ingested_at DateTime64(3, 'UTC') DEFAULT now64(3)
)
ENGINE = ReplacingMergeTree
PARTITION BY toYYYYMM(ts)
ORDER BY (organization_id, session_id, event_id)
TTL toDateTime(ts) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000;

-- One row set per session, merged by the engine and by every read (GROUP BY session_id with the
-- -Merge combinators). first_seen is the session's time in statistics: its earliest activity.
CREATE TABLE IF NOT EXISTS journey_session_states (
  organization_id UInt64,
  session_id String,
  first_seen SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
  last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
  app_id SimpleAggregateFunction(max, UInt64),
  platform SimpleAggregateFunction(max, String),
  utm_source SimpleAggregateFunction(max, String),
  utm_medium SimpleAggregateFunction(max, String),
  utm_campaign SimpleAggregateFunction(max, String),
  -- the latest non-empty externalUserId any row of the session carried
  external_user_id AggregateFunction(argMax, String, DateTime64(3, 'UTC')),
  events AggregateFunction(uniqExact, UUID),
  transitions AggregateFunction(uniqExact, UUID),
  -- highest web funnel stage reached (1 CLICKED … 5 GOAL_COMPLETED), 0 for none
  max_stage SimpleAggregateFunction(max, UInt8),
  goals AggregateFunction(uniqExact, UUID)
)
ENGINE = AggregatingMergeTree
ORDER BY (organization_id, session_id)
-- a merged row goes once the session's last activity is past the longest retention
TTL toDateTime(last_seen) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000;

CREATE MATERIALIZED VIEW IF NOT EXISTS journey_session_states_starts_mv TO journey_session_states AS
SELECT organization_id, session_id,
  min(ts) AS first_seen, max(ts) AS last_seen, max(app_id) AS app_id,
  max(toString(platform)) AS platform,
  max(toString(utm_source)) AS utm_source, max(toString(utm_medium)) AS utm_medium, max(toString(utm_campaign)) AS utm_campaign,
  argMaxState(external_user_id, if(external_user_id = '', toDateTime64(0, 3, 'UTC'), ts)) AS external_user_id
FROM journey_session_starts
GROUP BY organization_id, session_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS journey_session_states_events_mv TO journey_session_states AS
SELECT organization_id, session_id,
  min(ts) AS first_seen, max(ts) AS last_seen, max(app_id) AS app_id,
  max(toString(platform)) AS platform,
  argMaxState(external_user_id, if(external_user_id = '', toDateTime64(0, 3, 'UTC'), ts)) AS external_user_id,
  uniqExactState(event_id) AS events
FROM journey_events
GROUP BY organization_id, session_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS journey_session_states_transitions_mv TO journey_session_states AS
SELECT organization_id, session_id,
  min(ts) AS first_seen, max(ts) AS last_seen, max(app_id) AS app_id,
  argMaxState(external_user_id, if(external_user_id = '', toDateTime64(0, 3, 'UTC'), ts)) AS external_user_id,
  uniqExactState(event_id) AS transitions
FROM journey_transitions
GROUP BY organization_id, session_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS journey_session_states_funnel_mv TO journey_session_states AS
SELECT organization_id, session_id,
  min(ts) AS first_seen, max(ts) AS last_seen, max(app_id) AS app_id,
  max(toString(platform)) AS platform,
  argMaxState(external_user_id, if(external_user_id = '', toDateTime64(0, 3, 'UTC'), ts)) AS external_user_id,
  max(CAST(stage, 'UInt8')) AS max_stage,
  uniqExactStateIf(event_id, stage = 'GOAL_COMPLETED') AS goals
FROM journey_funnel
GROUP BY organization_id, session_id;
