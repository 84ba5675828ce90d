-- Stable views for readers outside the service (analysts, BI tools, data pipelines): their names,
-- columns and types stay as they are while the tables behind them change; a change that cannot
-- keep them comes as a _v2 beside them. Plain types (String rather than LowCardinality or Enum),
-- times in UTC, no IP addresses or raw user agents. test/clickhouse-data-teams.test.ts pins each one.

CREATE VIEW IF NOT EXISTS clicks_v1 AS
SELECT
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

CREATE VIEW IF NOT EXISTS installs_v1 AS
SELECT
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

CREATE VIEW IF NOT EXISTS funnel_events_v1 AS
SELECT
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
  CAST(source, 'String') AS source
FROM deeplink_funnel;

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
  argMaxMerge(external_user_id) AS external_user_id,
  toUInt64(uniqExactMerge(events)) AS events,
  toUInt64(uniqExactMerge(transitions)) AS transitions,
  toUInt8(max(max_stage)) AS funnel_stage_reached,
  toUInt64(uniqExactMerge(goals)) AS goals
FROM journey_session_states
GROUP BY organization_id, session_id;

-- FINAL: the journey tables collapse a repeated event id only when their parts merge.
CREATE VIEW IF NOT EXISTS journey_events_v1 AS
SELECT
  event_id,
  ts,
  organization_id,
  app_id,
  session_id,
  CAST(platform, 'String') AS platform,
  CAST(event_type, 'String') AS event_type,
  properties,
  external_user_id
FROM journey_events FINAL;

CREATE VIEW IF NOT EXISTS transitions_v1 AS
SELECT
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
FROM journey_transitions FINAL;

ALTER TABLE clicks_v1 MODIFY COMMENT 'Stable: every click, people and bots (is_bot 1). UTC times. No IP address or user agent. Count people with WHERE is_bot = 0.';
ALTER TABLE installs_v1 MODIFY COMMENT 'Stable: every app install (first launch), its attribution (link, match_type) or organic. UTC times.';
ALTER TABLE funnel_events_v1 MODIFY COMMENT 'Stable: the mobile deep-link funnel, one row per stage reached; GOAL_COMPLETED rows carry goal_value in currency (revenue for PURCHASE). UTC times.';
ALTER TABLE sessions_v1 MODIFY COMMENT 'Stable: one row per user-journey session (add-on) with its start, last activity, length, source and counts. UTC times.';
ALTER TABLE journey_events_v1 MODIFY COMMENT 'Stable: user-journey events (add-on), each once. properties is JSON text. UTC times.';
ALTER TABLE transitions_v1 MODIFY COMMENT 'Stable: user-journey moves between platforms (add-on), each once. UTC times.';
