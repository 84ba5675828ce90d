-- What every table and column holds, for people who query ClickHouse themselves (docs/clickhouse.md
-- is the guide). Times are UTC throughout; a statistics time zone is applied when reading.
-- ALTER ... COMMENT only changes metadata: no data is rewritten.

ALTER TABLE schema_migrations
  MODIFY COMMENT 'ClickHouse migrations applied, one row per file of sql/clickhouse. Internal.',
  COMMENT COLUMN version 'Migration number (the file name''s prefix)',
  COMMENT COLUMN name 'Migration name (the rest of the file name)',
  COMMENT COLUMN applied_at 'When it was applied, UTC';

ALTER TABLE api_requests
  MODIFY COMMENT 'One row per Service API call (not the SDK or console APIs). Raw; kept 400 days. Read through api usage, not by customers directly.',
  COMMENT COLUMN event_id 'Unique id of the call (UUIDv7, time-ordered)',
  COMMENT COLUMN ts 'When the call was answered, UTC, millisecond precision',
  COMMENT COLUMN organization_id 'Organization (tenant) whose API key made the call',
  COMMENT COLUMN api_key_id 'Id of the Service API key used (PostgreSQL api_keys.id)',
  COMMENT COLUMN method 'HTTP method',
  COMMENT COLUMN route 'Route pattern, e.g. /api/v1/service/urls/:id (no ids or query)',
  COMMENT COLUMN status 'HTTP status code answered',
  COMMENT COLUMN duration_ms 'Time to answer, milliseconds',
  COMMENT COLUMN ip 'Client IP address as seen by the service (after trusted proxies). Personal data',
  COMMENT COLUMN request_id 'X-Request-Id of the call, to find it in the service''s logs';

ALTER TABLE clicks
  MODIFY COMMENT 'One row per click on a short URL or campaign link: the redirect''s and the ones the mobile SDK reports. Bots included (is_bot = 1). Raw; kept 1,825 days. For counts over time prefer click_series_15m and click_dims_15m; read people through clicks_v1.',
  COMMENT COLUMN event_id 'Unique id of the click (UUIDv7, time-ordered); a redelivered click keeps it',
  COMMENT COLUMN ts 'When the click was answered, UTC, millisecond precision',
  COMMENT COLUMN organization_id 'Organization (tenant) owning the link',
  COMMENT COLUMN link_type 'url (a short URL) or campaign',
  COMMENT COLUMN link_id 'Id of the short URL or campaign (PostgreSQL short_urls.id or campaigns.id, per link_type)',
  COMMENT COLUMN host 'Host the link was opened on: the service''s own or a custom domain',
  COMMENT COLUMN cid 'Campaign click: the user tracking id (cid) the link carried; empty otherwise',
  COMMENT COLUMN tracker 'Campaign click: the tracker parameter the link carried; empty otherwise',
  COMMENT COLUMN referrer 'Referer header as sent (may be empty)',
  COMMENT COLUMN referrer_host 'Host of the referrer, lower case; empty for direct traffic',
  COMMENT COLUMN utm_source 'utm_source the click carried (the link''s own UTM parameters are in PostgreSQL)',
  COMMENT COLUMN utm_medium 'utm_medium the click carried',
  COMMENT COLUMN utm_campaign 'utm_campaign the click carried',
  COMMENT COLUMN utm_term 'utm_term the click carried',
  COMMENT COLUMN utm_content 'utm_content the click carried',
  COMMENT COLUMN ip 'Client IP address (after trusted proxies). Personal data; not in clicks_v1',
  COMMENT COLUMN user_agent 'User-Agent header, at most 1,000 characters. Not in clicks_v1',
  COMMENT COLUMN accept_language 'Accept-Language header, at most 100 characters',
  COMMENT COLUMN country 'ISO 3166-1 alpha-2 country from the IP address; empty when unknown',
  COMMENT COLUMN device_type 'Mobile, Desktop or Tablet, from the user agent',
  COMMENT COLUMN os 'Operating system name from the user agent (iOS, Android, Windows, ...); Unknown when none',
  COMMENT COLUMN os_version 'Operating system version from the user agent; empty when none',
  COMMENT COLUMN browser 'Browser name from the user agent; Unknown when none',
  COMMENT COLUMN is_bot '1 for crawlers, preview fetchers and other automated clients; statistics count 0 only',
  COMMENT COLUMN ingested_at 'When the row was written, UTC (ts plus the pipeline''s delay)',
  COMMENT COLUMN source 'redirect (the service answered it) or mobile_sdk (an app reported it); empty on rows before migration 0006',
  COMMENT COLUMN click_id 'Number the mobile SDK handed back for a click it reported; 0 otherwise';

ALTER TABLE link_click_totals
  MODIFY COMMENT 'Rollup: clicks by people per link since it was made (the API''s clickCount). Summed by the engine: read with sum(clicks) and GROUP BY.',
  COMMENT COLUMN organization_id 'Organization (tenant) owning the link',
  COMMENT COLUMN link_type 'url or campaign',
  COMMENT COLUMN link_id 'Id of the short URL or campaign',
  COMMENT COLUMN clicks 'Clicks by people (is_bot = 0); sum() it';

ALTER TABLE link_click_totals_mv
  MODIFY COMMENT 'Feeds link_click_totals from each insert into clicks. Internal.';

ALTER TABLE click_series_15m
  MODIFY COMMENT 'Rollup: clicks by people per link per 15-minute UTC bucket. 15 minutes divide every real time zone offset (+5:30 and +5:45 too), so daily and hourly series in any zone come from here exactly. Read with sum(clicks) and GROUP BY.',
  COMMENT COLUMN organization_id 'Organization (tenant) owning the link',
  COMMENT COLUMN link_type 'url or campaign',
  COMMENT COLUMN link_id 'Id of the short URL or campaign',
  COMMENT COLUMN bucket 'Start of the 15-minute bucket, UTC',
  COMMENT COLUMN clicks 'Clicks by people in the bucket; sum() it';

ALTER TABLE click_series_15m_mv
  MODIFY COMMENT 'Feeds click_series_15m from each insert into clicks. Internal.';

ALTER TABLE click_dims_15m
  MODIFY COMMENT 'Rollup: clicks by people per link per 15-minute UTC bucket per dimension value (country, device, os, browser, referrer, tracker, utm_source, utm_medium, utm_campaign). Read with sum(clicks) WHERE dim = ... GROUP BY value.',
  COMMENT COLUMN organization_id 'Organization (tenant) owning the link',
  COMMENT COLUMN link_type 'url or campaign',
  COMMENT COLUMN link_id 'Id of the short URL or campaign',
  COMMENT COLUMN bucket 'Start of the 15-minute bucket, UTC',
  COMMENT COLUMN dim 'Dimension: country, device, os, browser, referrer, tracker, utm_source, utm_medium or utm_campaign',
  COMMENT COLUMN value 'Value of the dimension (country code, device type, host, ...); UTM dimensions leave out empty values',
  COMMENT COLUMN clicks 'Clicks by people with that value in the bucket; sum() it';

ALTER TABLE click_dims_15m_mv
  MODIFY COMMENT 'Feeds click_dims_15m (country, device, os, browser, referrer, tracker) from each insert into clicks. Internal.';

ALTER TABLE click_utm_15m_mv
  MODIFY COMMENT 'Feeds click_dims_15m (utm_source, utm_medium, utm_campaign) from each insert into clicks. Internal.';

ALTER TABLE deeplink_funnel
  MODIFY COMMENT 'Mobile deep-link funnel: one row per stage reached (click, store visit, install, open, deep link resolved, goal completed), from the landing page, resolutions and the SDK''s funnel/track. Goals carry revenue. Raw; kept 1,825 days. Read through funnel_events_v1.',
  COMMENT COLUMN event_id 'Unique id of the stage event (UUIDv7)',
  COMMENT COLUMN ts 'When the stage was reached, UTC',
  COMMENT COLUMN organization_id 'Organization (tenant) owning the app',
  COMMENT COLUMN app_id 'Id of the mobile app (PostgreSQL mobile_apps.id); 0 when not known',
  COMMENT COLUMN platform 'IOS, ANDROID, or empty when the stage came without one',
  COMMENT COLUMN session_id 'Funnel session that ties the stages of one person''s path together',
  COMMENT COLUMN stage 'CLICKED, STORE_VISITED, APP_INSTALLED, APP_OPENED, DEEP_LINK_RESOLVED or GOAL_COMPLETED (in this order)',
  COMMENT COLUMN link_type 'url, campaign, or none when no link is known',
  COMMENT COLUMN link_id 'Id of the short URL or campaign; 0 with none',
  COMMENT COLUMN goal_type 'GOAL_COMPLETED: the goal type (PURCHASE, SIGNUP, ... or the organization''s own)',
  COMMENT COLUMN goal_value 'GOAL_COMPLETED: the value reported (revenue for PURCHASE), in currency; 0 when none or not numeric',
  COMMENT COLUMN currency 'ISO 4217 currency of goal_value; empty when none',
  COMMENT COLUMN device_type 'Mobile, Tablet or Desktop when known',
  COMMENT COLUMN external_user_id 'The app''s own user id when it identified the user; empty otherwise',
  COMMENT COLUMN source 'Where the stage was recorded: landing (the landing page), server (a resolution) or sdk (funnel/track)',
  COMMENT COLUMN ingested_at 'When the row was written, UTC';

ALTER TABLE deeplink_resolutions
  MODIFY COMMENT 'Every deferred or direct deep-link resolution an app asked for, matched or not, with how and why. Raw; kept 1,825 days. Quality statistics read it.',
  COMMENT COLUMN event_id 'Unique id of the attempt (UUIDv7)',
  COMMENT COLUMN ts 'When the app asked, UTC',
  COMMENT COLUMN organization_id 'Organization (tenant) owning the app',
  COMMENT COLUMN app_id 'Id of the mobile app',
  COMMENT COLUMN platform 'IOS or ANDROID',
  COMMENT COLUMN method 'What the app asked with: token, referrer, fingerprint, shorturl or campaign',
  COMMENT COLUMN matched '1 when a click was found, 0 otherwise',
  COMMENT COLUMN match_type 'How it matched: referrer, fingerprint, token or direct; empty when not matched',
  COMMENT COLUMN confidence 'Match confidence, 0 to 100',
  COMMENT COLUMN failure_reason 'Why it did not match (expired_token, unknown_token, no_candidate, below_threshold, ...); empty when matched',
  COMMENT COLUMN link_type 'url, campaign, or none',
  COMMENT COLUMN link_id 'Id of the short URL or campaign matched; 0 with none',
  COMMENT COLUMN reengagement '1 when the app was already installed (an open from a link), 0 for a first launch',
  COMMENT COLUMN user_key 'Who, without personal data: the external user id when known, else a hash of device signals',
  COMMENT COLUMN ingested_at 'When the row was written, UTC';

ALTER TABLE app_installs
  MODIFY COMMENT 'One row per app install (first launch), attributed to a link or organic. Raw; kept 1,825 days. Read through installs_v1.',
  COMMENT COLUMN event_id 'Unique id of the install (UUIDv7)',
  COMMENT COLUMN ts 'When the app first launched, UTC',
  COMMENT COLUMN organization_id 'Organization (tenant) owning the app',
  COMMENT COLUMN app_id 'Id of the mobile app',
  COMMENT COLUMN platform 'IOS or ANDROID',
  COMMENT COLUMN link_type 'The link the install is attributed to: url, campaign, or none for an organic install',
  COMMENT COLUMN link_id 'Id of that short URL or campaign; 0 with none',
  COMMENT COLUMN match_type 'How it was attributed: referrer, fingerprint or organic',
  COMMENT COLUMN confidence 'Attribution confidence, 0 to 100',
  COMMENT COLUMN country 'ISO 3166-1 alpha-2 country from the IP address; empty when unknown',
  COMMENT COLUMN os_version 'Operating system version the app reported',
  COMMENT COLUMN session_id 'Funnel session of the install (ties it to deeplink_funnel)',
  COMMENT COLUMN ingested_at 'When the row was written, UTC';

ALTER TABLE journey_session_starts
  MODIFY COMMENT 'User journey (add-on): one row per session started, web or app, with where it came from. ReplacingMergeTree by event: count distinct event_id. Read sessions through sessions_v1.',
  COMMENT COLUMN event_id 'Unique id of the session start',
  COMMENT COLUMN ts 'When the session started, UTC',
  COMMENT COLUMN organization_id 'Organization (tenant)',
  COMMENT COLUMN app_id 'Id of the mobile app the journey API key belongs to',
  COMMENT COLUMN session_id 'The session''s id',
  COMMENT COLUMN platform 'WEB, IOS or ANDROID',
  COMMENT COLUMN external_user_id 'The customer''s own user id when known; empty otherwise',
  COMMENT COLUMN utm_source 'utm_source the session started with',
  COMMENT COLUMN utm_medium 'utm_medium the session started with',
  COMMENT COLUMN utm_campaign 'utm_campaign the session started with',
  COMMENT COLUMN referrer_host 'Host of the referrer the session started with; empty for direct',
  COMMENT COLUMN link_type 'The short link the session came from: url, campaign, or none',
  COMMENT COLUMN link_id 'Id of that short URL or campaign; 0 with none',
  COMMENT COLUMN ingested_at 'When the row was written, UTC';

ALTER TABLE journey_events
  MODIFY COMMENT 'User journey (add-on): one row per event of a session (page view, tap, ...). ReplacingMergeTree by event: count distinct event_id. Read through journey_events_v1.',
  COMMENT COLUMN event_id 'Unique id of the event (the client''s eventId when it sent one)',
  COMMENT COLUMN ts 'When the event happened, UTC',
  COMMENT COLUMN organization_id 'Organization (tenant)',
  COMMENT COLUMN app_id 'Id of the mobile app the journey API key belongs to',
  COMMENT COLUMN session_id 'The session the event belongs to',
  COMMENT COLUMN platform 'WEB, IOS or ANDROID',
  COMMENT COLUMN event_type 'The event''s type as the caller named it (page_view, ...)',
  COMMENT COLUMN properties 'The caller''s properties object as JSON text (JSONExtract* reads it)',
  COMMENT COLUMN external_user_id 'The customer''s own user id when known; empty otherwise',
  COMMENT COLUMN ingested_at 'When the row was written, UTC';

ALTER TABLE journey_transitions
  MODIFY COMMENT 'User journey (add-on): one row per move between platforms (web to app, app to web, app to app). ReplacingMergeTree by event: count distinct event_id. Read through transitions_v1.',
  COMMENT COLUMN event_id 'Unique id of the transition',
  COMMENT COLUMN ts 'When the transition happened, UTC',
  COMMENT COLUMN organization_id 'Organization (tenant)',
  COMMENT COLUMN app_id 'Id of the mobile app the journey API key belongs to',
  COMMENT COLUMN session_id 'The session it left',
  COMMENT COLUMN from_platform 'WEB, IOS or ANDROID: where it left',
  COMMENT COLUMN to_platform 'WEB, IOS or ANDROID: where it went',
  COMMENT COLUMN target_session_id 'The session on the destination platform, when the app already has one',
  COMMENT COLUMN link_type 'The short link it went through: url, campaign, or none',
  COMMENT COLUMN link_id 'Id of that short URL or campaign; 0 with none',
  COMMENT COLUMN deep_link_token 'Deep-link token that carried the journey across, when one did',
  COMMENT COLUMN external_user_id 'The customer''s own user id when known; empty otherwise',
  COMMENT COLUMN properties 'The caller''s properties object as JSON text',
  COMMENT COLUMN ingested_at 'When the row was written, UTC';

ALTER TABLE journey_funnel
  MODIFY COMMENT 'User journey (add-on): the web funnel, one row per stage reached (CLICKED, DEEP_LINK_RESOLVED, CONTENT_VIEWED, ACTION_TAKEN, GOAL_COMPLETED). ReplacingMergeTree by event: count distinct event_id.',
  COMMENT COLUMN event_id 'Unique id of the stage event',
  COMMENT COLUMN ts 'When the stage was reached, UTC',
  COMMENT COLUMN organization_id 'Organization (tenant)',
  COMMENT COLUMN app_id 'Id of the mobile app the journey API key belongs to',
  COMMENT COLUMN session_id 'The session that reached the stage',
  COMMENT COLUMN platform 'WEB, IOS or ANDROID',
  COMMENT COLUMN stage 'CLICKED, DEEP_LINK_RESOLVED, CONTENT_VIEWED, ACTION_TAKEN or GOAL_COMPLETED (in this order)',
  COMMENT COLUMN goal_type 'GOAL_COMPLETED: the goal type',
  COMMENT COLUMN goal_value 'GOAL_COMPLETED: the value reported, in currency; 0 when none',
  COMMENT COLUMN currency 'ISO 4217 currency of goal_value; empty when none',
  COMMENT COLUMN transaction_id 'The caller''s transaction id for a purchase; empty otherwise',
  COMMENT COLUMN link_type 'The short link involved: url, campaign, or none',
  COMMENT COLUMN link_id 'Id of that short URL or campaign; 0 with none',
  COMMENT COLUMN external_user_id 'The customer''s own user id when known; empty otherwise',
  COMMENT COLUMN ingested_at 'When the row was written, UTC';

ALTER TABLE journey_session_states
  MODIFY COMMENT 'User journey (add-on): aggregate state per session, merged by the engine. Read with GROUP BY organization_id, session_id and the -Merge combinators, or through sessions_v1, which does that.',
  COMMENT COLUMN organization_id 'Organization (tenant)',
  COMMENT COLUMN session_id 'The session''s id',
  COMMENT COLUMN first_seen 'Earliest activity of the session, UTC (min() it): the session''s time in statistics',
  COMMENT COLUMN last_seen 'Latest activity of the session, UTC (max() it)',
  COMMENT COLUMN app_id 'Id of the mobile app (max() it)',
  COMMENT COLUMN platform 'WEB, IOS or ANDROID (max() it)',
  COMMENT COLUMN utm_source 'utm_source the session started with (max() it)',
  COMMENT COLUMN utm_medium 'utm_medium the session started with (max() it)',
  COMMENT COLUMN utm_campaign 'utm_campaign the session started with (max() it)',
  COMMENT COLUMN external_user_id 'State of the latest non-empty external user id (argMaxMerge() it)',
  COMMENT COLUMN events 'State of the distinct events of the session (uniqExactMerge() it)',
  COMMENT COLUMN transitions 'State of the distinct transitions of the session (uniqExactMerge() it)',
  COMMENT COLUMN max_stage 'Highest web funnel stage reached, 1 CLICKED to 5 GOAL_COMPLETED, 0 for none (max() it)',
  COMMENT COLUMN goals 'State of the distinct goals completed in the session (uniqExactMerge() it)';

ALTER TABLE journey_session_states_starts_mv
  MODIFY COMMENT 'Feeds journey_session_states from journey_session_starts. Internal.';

ALTER TABLE journey_session_states_events_mv
  MODIFY COMMENT 'Feeds journey_session_states from journey_events. Internal.';

ALTER TABLE journey_session_states_transitions_mv
  MODIFY COMMENT 'Feeds journey_session_states from journey_transitions. Internal.';

ALTER TABLE journey_session_states_funnel_mv
  MODIFY COMMENT 'Feeds journey_session_states from journey_funnel. Internal.';
