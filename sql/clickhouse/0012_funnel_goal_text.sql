-- A mobile goal's value is text in the interface (funnel/track goalValue): a number is kept in
-- goal_value as before (revenue), any other text in goal_text. The stable funnel view gains the
-- column at its end, so queries written against it keep working.
ALTER TABLE deeplink_funnel ADD COLUMN IF NOT EXISTS goal_text String DEFAULT ''
  COMMENT 'GOAL_COMPLETED: the value reported when it is not a number (goal_value is then 0), as the app sent it; empty otherwise'
  AFTER goal_value;

CREATE OR REPLACE VIEW funnel_events_v1 AS
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
  CAST(source, 'String') AS source,
  goal_text
FROM deeplink_funnel;

ALTER TABLE funnel_events_v1 MODIFY COMMENT 'Stable: the mobile deep-link funnel, one row per stage reached; GOAL_COMPLETED rows carry goal_value in currency (revenue for PURCHASE), or goal_text when the app sent a value that is not a number. UTC times.';
