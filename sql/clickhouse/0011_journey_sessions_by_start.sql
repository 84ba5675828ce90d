-- User-journey sessions keyed by their start, so that statistics of a period read that period's
-- sessions only instead of every session the organization ever had.
--
-- A session's id is a UUIDv7 that the service issues from the session's start time (sessions/start),
-- so every row of a session, whichever raw table it comes from, knows the start from the id alone:
-- the first 48 bits are Unix milliseconds. That makes started_at a key column that is the same for
-- all rows of a session (they still merge into one), ordered by time within an organization.
--
-- journey_session_states (keyed by organization and session only) is replaced: its feeds stop, its
-- states are copied here, and it is dropped. Copying after the new feeds start may apply a state
-- twice; every column is an idempotent aggregate (min, max, uniqExact), so nothing counts twice.
--
-- Statistics read plain columns only (min and max); the uniqExact states, costly to read, serve
-- one session's counts (the session list, sessions_v1). The latest user id is a max() over
-- '<15-digit Unix ms><id>' strings: the id of the latest row that named one, read as a plain value.

CREATE TABLE IF NOT EXISTS journey_sessions (
  organization_id UInt64,
  started_at DateTime64(3, 'UTC'),
  session_id String,
  first_seen SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
  last_seen SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
  app_id SimpleAggregateFunction(max, UInt64),
  platform SimpleAggregateFunction(max, String),
  utm_source SimpleAggregateFunction(max, String),
  utm_medium SimpleAggregateFunction(max, String),
  utm_campaign SimpleAggregateFunction(max, String),
  latest_user SimpleAggregateFunction(max, String),
  events AggregateFunction(uniqExact, UUID),
  transitions AggregateFunction(uniqExact, UUID),
  max_stage SimpleAggregateFunction(max, UInt8),
  goals AggregateFunction(uniqExact, UUID),
  -- lowest and highest event id: equal when the session has one event (no event: lo > hi)
  event_lo SimpleAggregateFunction(min, UInt128) DEFAULT toUInt128('340282366920938463463374607431768211455'),
  event_hi SimpleAggregateFunction(max, UInt128),
  has_transition SimpleAggregateFunction(max, UInt8)
)
ENGINE = AggregatingMergeTree
PARTITION BY toYYYYMM(started_at)
ORDER BY (organization_id, started_at, session_id)
-- a merged row goes once the session's last activity is past the longest retention
TTL toDateTime(last_seen) + INTERVAL 1825 DAY
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'User journey (add-on): aggregate state per session, merged by the engine, ordered by the session''s start. Read with GROUP BY organization_id, session_id and the -Merge combinators, or through sessions_v1, which does that.';

CREATE MATERIALIZED VIEW IF NOT EXISTS journey_sessions_starts_mv TO journey_sessions AS
SELECT organization_id,
  fromUnixTimestamp64Milli(reinterpretAsInt64(reverse(unhex(concat('0000', substring(replaceAll(session_id, '-', ''), 1, 12))))), 'UTC') AS started_at,
  session_id,
  min(ts) AS first_seen, max(ts) AS last_seen, max(app_id) AS app_id,
  max(toString(platform)) AS platform,
  max(toString(utm_source)) AS utm_source, max(toString(utm_medium)) AS utm_medium, max(toString(utm_campaign)) AS utm_campaign,
  max(if(external_user_id = '', '', concat(leftPad(toString(toUnixTimestamp64Milli(ts)), 15, '0'), external_user_id))) AS latest_user
FROM journey_session_starts
GROUP BY organization_id, session_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS journey_sessions_events_mv TO journey_sessions AS
SELECT organization_id,
  fromUnixTimestamp64Milli(reinterpretAsInt64(reverse(unhex(concat('0000', substring(replaceAll(session_id, '-', ''), 1, 12))))), 'UTC') AS started_at,
  session_id,
  min(ts) AS first_seen, max(ts) AS last_seen, max(app_id) AS app_id,
  max(toString(platform)) AS platform,
  max(if(external_user_id = '', '', concat(leftPad(toString(toUnixTimestamp64Milli(ts)), 15, '0'), external_user_id))) AS latest_user,
  uniqExactState(event_id) AS events,
  min(toUInt128(event_id)) AS event_lo, max(toUInt128(event_id)) AS event_hi
FROM journey_events
GROUP BY organization_id, session_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS journey_sessions_transitions_mv TO journey_sessions AS
SELECT organization_id,
  fromUnixTimestamp64Milli(reinterpretAsInt64(reverse(unhex(concat('0000', substring(replaceAll(session_id, '-', ''), 1, 12))))), 'UTC') AS started_at,
  session_id,
  min(ts) AS first_seen, max(ts) AS last_seen, max(app_id) AS app_id,
  max(if(external_user_id = '', '', concat(leftPad(toString(toUnixTimestamp64Milli(ts)), 15, '0'), external_user_id))) AS latest_user,
  uniqExactState(event_id) AS transitions,
  toUInt8(1) AS has_transition
FROM journey_transitions
GROUP BY organization_id, session_id;

CREATE MATERIALIZED VIEW IF NOT EXISTS journey_sessions_funnel_mv TO journey_sessions AS
SELECT organization_id,
  fromUnixTimestamp64Milli(reinterpretAsInt64(reverse(unhex(concat('0000', substring(replaceAll(session_id, '-', ''), 1, 12))))), 'UTC') AS started_at,
  session_id,
  min(ts) AS first_seen, max(ts) AS last_seen, max(app_id) AS app_id,
  max(toString(platform)) AS platform,
  max(if(external_user_id = '', '', concat(leftPad(toString(toUnixTimestamp64Milli(ts)), 15, '0'), external_user_id))) AS latest_user,
  max(CAST(stage, 'UInt8')) AS max_stage,
  uniqExactStateIf(event_id, stage = 'GOAL_COMPLETED') AS goals
FROM journey_funnel
GROUP BY organization_id, session_id;

DROP VIEW IF EXISTS journey_session_states_starts_mv;
DROP VIEW IF EXISTS journey_session_states_events_mv;
DROP VIEW IF EXISTS journey_session_states_transitions_mv;
DROP VIEW IF EXISTS journey_session_states_funnel_mv;

-- The old table is gone once this file has run; a rerun after that copies from an empty stand-in.
CREATE TABLE IF NOT EXISTS journey_session_states AS journey_sessions ENGINE = Memory;

-- A state row's user is stamped with that row's last activity; the event id bounds and the
-- transition flag come from the raw tables.
INSERT INTO journey_sessions (organization_id, started_at, session_id, first_seen, last_seen, app_id, platform,
  utm_source, utm_medium, utm_campaign, latest_user, events, transitions, max_stage, goals)
SELECT organization_id,
  fromUnixTimestamp64Milli(reinterpretAsInt64(reverse(unhex(concat('0000', substring(replaceAll(session_id, '-', ''), 1, 12))))), 'UTC'),
  session_id, first_seen, last_seen, app_id, platform, utm_source, utm_medium, utm_campaign,
  if(finalizeAggregation(external_user_id) = '', '', concat(leftPad(toString(toUnixTimestamp64Milli(last_seen)), 15, '0'), finalizeAggregation(external_user_id))),
  events, transitions, max_stage, goals
FROM journey_session_states;

INSERT INTO journey_sessions (organization_id, started_at, session_id, first_seen, last_seen, event_lo, event_hi)
SELECT organization_id,
  fromUnixTimestamp64Milli(reinterpretAsInt64(reverse(unhex(concat('0000', substring(replaceAll(session_id, '-', ''), 1, 12))))), 'UTC'),
  session_id, min(ts), max(ts), min(toUInt128(event_id)), max(toUInt128(event_id))
FROM journey_events
GROUP BY organization_id, session_id;

INSERT INTO journey_sessions (organization_id, started_at, session_id, first_seen, last_seen, has_transition)
SELECT organization_id,
  fromUnixTimestamp64Milli(reinterpretAsInt64(reverse(unhex(concat('0000', substring(replaceAll(session_id, '-', ''), 1, 12))))), 'UTC'),
  session_id, min(ts), max(ts), 1
FROM journey_transitions
GROUP BY organization_id, session_id;

DROP VIEW IF EXISTS sessions_v1;

CREATE VIEW IF NOT EXISTS sessions_v1 AS
SELECT
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
GROUP BY organization_id, session_id;

ALTER TABLE sessions_v1 MODIFY COMMENT 'Stable: one row per user-journey session (add-on) with its start, last activity, length, source and counts. UTC times.';

DROP TABLE IF EXISTS journey_session_states;

ALTER TABLE journey_sessions
  COMMENT COLUMN organization_id 'Organization (tenant)',
  COMMENT COLUMN started_at 'When the session started, UTC: the time in its UUIDv7 id, which the service issues at sessions/start. The session''s time in statistics',
  COMMENT COLUMN session_id 'The session''s id',
  COMMENT COLUMN first_seen 'Earliest activity of the session, UTC (min() it); a client may date an event before the start',
  COMMENT COLUMN last_seen 'Latest activity of the session, UTC (max() it)',
  COMMENT COLUMN app_id 'Id of the mobile app (max() it)',
  COMMENT COLUMN platform 'WEB, IOS or ANDROID (max() it)',
  COMMENT COLUMN utm_source 'utm_source the session started with (max() it)',
  COMMENT COLUMN utm_medium 'utm_medium the session started with (max() it)',
  COMMENT COLUMN utm_campaign 'utm_campaign the session started with (max() it)',
  COMMENT COLUMN latest_user 'The latest non-empty external user id, after the 15-digit Unix ms it was seen at (max() it, then substring(…, 16)); empty when none',
  COMMENT COLUMN events 'State of the distinct events of the session (uniqExactMerge() it)',
  COMMENT COLUMN transitions 'State of the distinct transitions of the session (uniqExactMerge() it)',
  COMMENT COLUMN max_stage 'Highest web funnel stage reached, 1 CLICKED to 5 GOAL_COMPLETED, 0 for none (max() it)',
  COMMENT COLUMN goals 'State of the distinct goals completed in the session (uniqExactMerge() it)',
  COMMENT COLUMN event_lo 'Lowest event id of the session as a number (min() it); above event_hi when it has no event',
  COMMENT COLUMN event_hi 'Highest event id of the session as a number (max() it); 0 when it has no event',
  COMMENT COLUMN has_transition '1 when the session moved between platforms at least once (max() it)';

ALTER TABLE journey_sessions_starts_mv MODIFY COMMENT 'Feeds journey_sessions from journey_session_starts. Internal.';
ALTER TABLE journey_sessions_events_mv MODIFY COMMENT 'Feeds journey_sessions from journey_events. Internal.';
ALTER TABLE journey_sessions_transitions_mv MODIFY COMMENT 'Feeds journey_sessions from journey_transitions. Internal.';
ALTER TABLE journey_sessions_funnel_mv MODIFY COMMENT 'Feeds journey_sessions from journey_funnel. Internal.';

-- The raw journey tables are sorted by organization and session, and a session's id begins with its
-- start (UUIDv7, written as text, whose order is the time order): within an organization their rows
-- lie in time order already, give or take a session's length. A minmax index on the event time lets
-- a period's statistics skip every granule outside the period, with no copy of the tables.
ALTER TABLE journey_events ADD INDEX IF NOT EXISTS ts_minmax ts TYPE minmax GRANULARITY 1;
ALTER TABLE journey_transitions ADD INDEX IF NOT EXISTS ts_minmax ts TYPE minmax GRANULARITY 1;
ALTER TABLE journey_funnel ADD INDEX IF NOT EXISTS ts_minmax ts TYPE minmax GRANULARITY 1;
ALTER TABLE journey_events MATERIALIZE INDEX ts_minmax;
ALTER TABLE journey_transitions MATERIALIZE INDEX ts_minmax;
ALTER TABLE journey_funnel MATERIALIZE INDEX ts_minmax;
