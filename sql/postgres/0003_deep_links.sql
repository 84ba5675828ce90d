-- Deep links: the single-purpose tokens a phone's click creates (landing page → app or store →
-- first launch), the idempotency marks of SDK funnel stages, push-identity associations of links,
-- the web SDK's Android intent debug reports, and the ids of SDK-reported clicks. Tokens, marks and
-- reports are purged periodically, so every table but associations stays bounded.

create table if not exists deep_link_tokens (
  token text primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  app_id bigint not null references mobile_apps (id) on delete cascade,
  platform text not null check (platform in ('IOS', 'ANDROID')),
  link_type text not null check (link_type in ('url', 'campaign')),
  short_url_id bigint references short_urls (id) on delete cascade,
  campaign_id bigint references campaigns (id) on delete cascade,
  -- The click as the redirect saw it: the signals deferred matching compares a first launch with.
  ip text not null,
  -- /24 of IPv4, /48 of IPv6: a phone that moved to another address of the same network.
  ip_prefix text not null,
  user_agent text not null,
  os text,
  os_version text,
  device_model text,
  accept_language text,
  cid text,
  tracker text,
  -- Posted by the landing page (update-fingerprint).
  resolution text,
  time_zone text,
  language text,
  pixel_ratio real,
  fingerprint_at timestamptz,
  store_visited_at timestamptz,
  -- deeplink/match: the app opened with the token.
  opened_at timestamptz,
  -- Once a token matched (match, referrer, fingerprint) it never matches again.
  consumed_at timestamptz,
  consumed_by text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  check ((link_type = 'url') = (short_url_id is not null)),
  check ((link_type = 'campaign') = (campaign_id is not null))
);
-- Deferred matching: the open tokens of one app, newest first, narrowed by IP or its network.
create index if not exists deep_link_tokens_open_ip_idx
  on deep_link_tokens (app_id, ip, created_at desc) where consumed_at is null;
create index if not exists deep_link_tokens_open_prefix_idx
  on deep_link_tokens (app_id, ip_prefix, created_at desc) where consumed_at is null;
create index if not exists deep_link_tokens_open_resolution_idx
  on deep_link_tokens (app_id, resolution, created_at desc) where consumed_at is null and resolution is not null;
create index if not exists deep_link_tokens_expiry_idx on deep_link_tokens (expires_at);

-- funnel/track is idempotent per session, stage and timestamp: a repeat finds its mark.
create table if not exists deep_link_funnel_marks (
  organization_id bigint not null references organizations (id) on delete cascade,
  session_id text not null,
  stage text not null,
  -- The caller's timestamp; '' when it sent none (one mark per session and stage then).
  occurred_at text not null,
  recorded_at timestamptz not null default now(),
  primary key (organization_id, session_id, stage, occurred_at)
);
create index if not exists deep_link_funnel_marks_recorded_idx on deep_link_funnel_marks (recorded_at);

-- Push-service identity attached to a link by the mobile SDK (upsert per link and token index).
create table if not exists link_associations (
  organization_id bigint not null references organizations (id) on delete cascade,
  link_type text not null check (link_type in ('url', 'campaign')),
  link_id bigint not null,
  tokenidx text not null,
  identify text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, link_type, link_id, tokenidx)
);

-- What the web SDK saw when it built an Android intent, for the operator to debug with.
create table if not exists debug_scheme_reports (
  id bigint generated always as identity primary key,
  organization_id bigint references organizations (id) on delete cascade,
  app_id bigint references mobile_apps (id) on delete cascade,
  token text,
  app_url text,
  scheme_end text,
  path_part text,
  android_package text,
  app_scheme text,
  intent_url text,
  user_agent text,
  created_at timestamptz not null default now()
);
create index if not exists debug_scheme_reports_app_idx on debug_scheme_reports (app_id, id desc);
create index if not exists debug_scheme_reports_created_idx on debug_scheme_reports (created_at);

-- clickId (a Long) of clicks the mobile SDK reports (clicks/url, clicks/campaign).
create sequence if not exists sdk_click_ids;
