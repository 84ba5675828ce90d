-- The schema of 0.1.0, the first release: what migrations 0001 to 0018 of the development history
-- added up to, as one file (git history has them). Later migrations start at 0002.
--
-- Tenancy, Service API keys and usage, custom domains, webhook endpoints and SSO partners.

create table if not exists organizations (
  id bigint generated always as identity primary key,
  name text not null check (length(name) between 1 and 200),
  plan text not null default 'FREE' check (plan in ('FREE', 'PRO', 'BUSINESS', 'ENTERPRISE')),
  -- null: the plan's default quota
  monthly_quota bigint check (monthly_quota >= 0),
  user_journey boolean not null default false,
  revenue_analytics boolean not null default false,
  -- addresses or CIDR blocks; empty allows every client
  ip_allowlist text[] not null default '{}',
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The language of the organization's visitor pages (landing, interstitial, 404, 410) when the
  -- visitor's browser asks for none we speak.
  default_language text not null default 'ko' check (default_language in ('ko', 'en', 'ja')),
  -- Where a day the organization names ends (a link's expiry given as a bare date lasts until the
  -- end of that day there). Korean customers first, so Asia/Seoul by default.
  time_zone text not null default 'Asia/Seoul'
);

-- Console accounts (the rest of them under "People" below). Addresses and names are PII: sealed
-- with the PII keyring (src/shared/secret-box.ts) and found through a blind index (HMAC of the
-- lower-case address), so an address is unique whatever its case.
create table if not exists users (
  id bigint generated always as identity primary key,
  email_sealed text not null,
  email_index bytea not null,
  name_sealed text,
  -- the language of the mail we send and of the console (ko, en)
  language text not null default 'ko' check (language in ('ko', 'en')),
  created_at timestamptz not null default now(),
  last_login_at timestamptz
);
create unique index if not exists users_email_index_key on users (email_index);

-- Only the SHA-256 of a key is kept; the key itself is shown once, at creation.
create table if not exists api_keys (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  key_hash bytea not null unique,
  -- the first characters, so a person can tell keys apart in a list
  key_prefix text not null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  -- so people can tell keys apart in the console's developer menu
  name text check (length(name) between 1 and 100)
);
create index if not exists api_keys_organization_idx on api_keys (organization_id);

-- Service API calls per organization and UTC month, added in batches (never a write per call).
create table if not exists api_usage (
  organization_id bigint not null references organizations (id) on delete cascade,
  month date not null,
  calls bigint not null default 0,
  primary key (organization_id, month)
);

create table if not exists custom_domains (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  domain_name text not null,
  status text not null default 'PENDING' check (status in ('PENDING', 'VERIFIED', 'ACTIVE', 'FAILED', 'REVOKED')),
  -- null for subdomains of the platform's own host, which need no DNS record
  cname_record_name text,
  cname_record_value text,
  verification_failures integer not null default 0,
  last_checked_at timestamptz,
  status_changed_at timestamptz not null default now(),
  created_at timestamptz not null default now(),
  deletion_requested boolean not null default false,
  deletion_requested_at timestamptz,
  -- DNS verification (src/domains/domain-verifier.ts): verification_failures counts consecutive
  -- misses; last_checked_at doubles as the claim (an instance sets it when it takes a domain, so the
  -- others skip the domain until it is due again).
  verification_attempts integer not null default 0,
  -- When the record was last found; only a domain whose record was once there can lose it (REVOKED).
  record_seen_at timestamptz,
  -- What the last check saw, for the operator: found, missing, wrong-target:<value>, error:<code>.
  last_check_result text,
  -- Where the bare root of the domain (https://links.example.com/) sends a visitor: the customer's
  -- own site, set by the operator. Null: the 404 page.
  fallback_url text check (length(fallback_url) <= 2048),
  -- The console member who added it (the operator's domains name no one).
  created_by_user_id bigint references users (id) on delete set null,
  -- A claimed DNS check holds its domain until it ends, or its lease runs out when the instance died
  -- mid-check: last_checked_at alone let another instance claim the domain again while a check
  -- slower than the interval was still waiting for DNS, and ask a second time for nothing.
  check_claimed_until timestamptz
);
create unique index if not exists custom_domains_domain_name_key on custom_domains (lower(domain_name));
create index if not exists custom_domains_organization_idx on custom_domains (organization_id, created_at desc, id desc);
create index if not exists custom_domains_verification_due_idx on custom_domains (last_checked_at nulls first, id)
  where status in ('PENDING', 'VERIFIED', 'ACTIVE') and cname_record_name is not null;

create table if not exists webhook_endpoints (
  organization_id bigint primary key references organizations (id) on delete cascade,
  url text not null,
  -- AES-256-GCM sealed; the previous secret stays valid during a rotation
  secret_sealed text not null,
  previous_secret_sealed text,
  events text[] not null,
  enabled boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Until when the previous secret is still signed with (null: as long as it is kept).
  previous_secret_valid_until timestamptz,
  -- Failed attempts in a row, across deliveries, and when the streak began; a success resets both.
  consecutive_failures integer not null default 0,
  failing_since timestamptz,
  disabled_at timestamptz,
  disabled_reason text
);

create table if not exists sso_partners (
  id bigint generated always as identity primary key,
  client_id text not null unique,
  service_name text not null,
  allowed_origins text[] not null default '{}',
  login_url text not null,
  contact_email_sealed text not null,
  -- HS256 verification needs the secret itself, so it is sealed rather than hashed
  shared_secret_sealed text not null,
  created_at timestamptz not null default now(),
  -- A partner may name the organization its users join, and the role they get there.
  organization_id bigint references organizations (id) on delete set null,
  default_role text not null default 'developer' check (default_role in ('admin', 'developer', 'analyst')),
  secret_rotated_at timestamptz,
  updated_at timestamptz not null default now()
);

-- =================================================================================================
-- Mobile apps, short URLs and campaigns. Short codes and campaign aliases share one namespace per
-- domain (the slugs table); keyword search uses trigram indexes.

create extension if not exists pg_trgm;

create table if not exists mobile_apps (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  platform text not null check (platform in ('IOS', 'ANDROID')),
  app_name text not null,
  bundle_id text not null,
  team_id text,
  scheme text,
  store_url text,
  app_icon_url text,
  -- URL namespace: {base}/{path}/{code}
  path text not null unique,
  -- The mobile SDK key is shown on every read (the spec's record carries it), so it is sealed for
  -- display and hashed for look-up.
  api_key_sealed text not null,
  api_key_hash bytea not null unique,
  sha256_cert_fingerprints text[] not null default '{}',
  deep_link_token_ttl_seconds integer not null default 7200 check (deep_link_token_ttl_seconds between 60 and 604800),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Identity verification of keyless user-journey calls (identify, opt-in): the app's identity
  -- secret, sealed with the PII keyring because checking an HMAC needs the secret itself, not a hash
  -- of it. Null: verification is off for the app.
  identity_secret_sealed text,
  -- When the current secret was issued (rotation replaces it); null exactly when the secret is.
  identity_secret_issued_at timestamptz,
  -- Clipboard match on iOS (opt-in): the landing page's store button copies a short code for the
  -- click, and the app reads it once at first launch (deep_link_tokens.clipboard_code).
  clipboard_match boolean not null default false
);
create index if not exists mobile_apps_organization_idx on mobile_apps (organization_id, created_at desc, id desc);
-- Keyless identify asks whether any app of the organization requires verification.
create index if not exists mobile_apps_identity_verification_idx on mobile_apps (organization_id)
  where identity_secret_sealed is not null;

create table if not exists short_urls (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  short_code text not null,
  -- null: the platform's own host
  custom_domain_id bigint references custom_domains (id) on delete restrict,
  original_url text not null,
  title text,
  expires_at timestamptz,
  show_ad_page boolean not null default false,
  og_title text,
  og_description text,
  og_image_url text,
  ios_app_id bigint references mobile_apps (id) on delete set null,
  android_app_id bigint references mobile_apps (id) on delete set null,
  utm_source text,
  utm_medium text,
  utm_campaign text,
  utm_term text,
  utm_content text,
  ios_deep_link_path text,
  android_deep_link_path text,
  mobile_target_url text,
  goal_type text,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create index if not exists short_urls_organization_idx on short_urls (organization_id, created_at desc, id desc);
create index if not exists short_urls_search_idx on short_urls using gin (lower(original_url || ' ' || short_code) gin_trgm_ops);

create table if not exists campaigns (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  name text not null,
  alias text not null,
  custom_domain_id bigint references custom_domains (id) on delete restrict,
  original_url text not null,
  expires_at timestamptz,
  ios_app_id bigint references mobile_apps (id) on delete set null,
  android_app_id bigint references mobile_apps (id) on delete set null,
  utm_source text,
  utm_medium text,
  ios_deep_link_path text,
  android_deep_link_path text,
  goal_type text,
  -- The organization's name, what the record showed before creators were kept by id.
  created_by text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- Who made it: the console member, or the Service API key for API-made campaigns.
  created_by_user_id bigint references users (id) on delete set null,
  created_by_api_key_id bigint references api_keys (id) on delete set null
);
create index if not exists campaigns_organization_idx on campaigns (organization_id, created_at desc, id desc);
create index if not exists campaigns_search_idx on campaigns using gin (lower(name || ' ' || alias) gin_trgm_ops);

-- Every reachable path segment of a domain, owned by exactly one short URL or campaign.
-- domain_key '' is the platform host; otherwise the custom domain's name.
create table if not exists slugs (
  domain_key text not null,
  code text not null,
  organization_id bigint not null references organizations (id) on delete cascade,
  short_url_id bigint references short_urls (id) on delete cascade,
  campaign_id bigint references campaigns (id) on delete cascade,
  primary key (domain_key, code),
  check ((short_url_id is null) <> (campaign_id is null))
);
create unique index if not exists slugs_short_url_idx on slugs (short_url_id) where short_url_id is not null;
create unique index if not exists slugs_campaign_idx on slugs (campaign_id) where campaign_id is not null;

-- =================================================================================================
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
  -- /24 of IPv4, /64 of IPv6 (the network one household or one phone's mobile connection uses):
  -- a phone that moved to another address of the same network.
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
  -- Clipboard match (mobile_apps.clipboard_match): the short code the landing page copied; it lives
  -- and is consumed with its token.
  clipboard_code text,
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
-- A first launch that matches no open click is told why: a click near it was already consumed (by
-- another launch, or the app opened with it) or expired (the purge keeps expired tokens a day for
-- this). These find the consumed ones by address and network the same way.
create index if not exists deep_link_tokens_consumed_ip_idx
  on deep_link_tokens (app_id, ip, created_at desc) where consumed_at is not null;
create index if not exists deep_link_tokens_consumed_prefix_idx
  on deep_link_tokens (app_id, ip_prefix, created_at desc) where consumed_at is not null;
-- resolve-campaign looks for the click a device made on one campaign, consumed or not (the app may
-- have opened with its token already): the campaign's tokens, newest first.
create index if not exists deep_link_tokens_campaign_idx
  on deep_link_tokens (campaign_id, created_at desc) where campaign_id is not null;
create unique index if not exists deep_link_tokens_clipboard_code_idx
  on deep_link_tokens (clipboard_code) where clipboard_code is not null;
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

-- =================================================================================================
-- User journey: sessions across web and app, user identities (identify), the consent history the
-- law asks for, and purchase/goal transaction ids seen once per organization. Events, transitions
-- and funnel stages themselves live in ClickHouse.

create table if not exists journey_sessions (
  -- UUIDv7 made by the server at create: unguessable, and it sorts by start time
  id uuid primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  app_id bigint references mobile_apps (id) on delete set null,
  platform text not null check (platform in ('WEB', 'IOS', 'ANDROID')),
  external_user_id text check (length(external_user_id) between 1 and 200),
  user_linked_at timestamptz,
  deep_link_token text check (length(deep_link_token) <= 200),
  utm_source text,
  utm_medium text,
  utm_campaign text,
  referrer text,
  landing_url text,
  -- the short link or campaign the session came from (register-fplink); the latest one wins
  link_type text check (link_type in ('url', 'campaign')),
  link_id bigint,
  link_code text,
  link_registered_at timestamptz,
  started_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  check ((link_type is null) = (link_id is null))
);
create index if not exists journey_sessions_organization_idx on journey_sessions (organization_id, started_at desc);
create index if not exists journey_sessions_user_idx on journey_sessions (organization_id, external_user_id) where external_user_id is not null;

-- One identity per (organization, externalUserId). Phone and email are AES-256-GCM sealed (the key
-- id is part of each value); the *_index columns are HMAC-SHA256 blind indexes of the normalised
-- value, so a record can be found by phone or email without storing or comparing plaintext.
create table if not exists journey_users (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  external_user_id text not null check (length(external_user_id) between 1 and 200),
  name text,
  phone_sealed text,
  phone_index bytea,
  email_sealed text,
  email_index bytea,
  push_identify text,
  -- consent flags: null means never stated
  sms_opt_in boolean,
  email_opt_in boolean,
  push_opt_in boolean,
  sms_ad_opt_in boolean,
  email_ad_opt_in boolean,
  push_ad_opt_in boolean,
  night_ad_opt_in boolean,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  unique (organization_id, external_user_id)
);
create index if not exists journey_users_phone_idx on journey_users (organization_id, phone_index) where phone_index is not null;
create index if not exists journey_users_email_idx on journey_users (organization_id, email_index) where email_index is not null;

-- Every change of a consent flag, never updated or deleted while the user exists: when, from what
-- to what, through which call and which kind of caller (Korean law requires the history).
create table if not exists journey_consent_changes (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  user_id bigint not null references journey_users (id) on delete cascade,
  flag text not null check (flag in ('smsOptIn', 'emailOptIn', 'pushOptIn', 'smsAdOptIn', 'emailAdOptIn', 'pushAdOptIn', 'nightAdOptIn')),
  old_value boolean,
  new_value boolean not null,
  -- identify or opt-in
  source text not null check (source in ('identify', 'opt-in')),
  -- mobile (app key proven), browser (app id only), service (Service API), console (a member)
  channel text not null check (channel in ('mobile', 'browser', 'service', 'console')),
  app_id bigint,
  request_id text,
  changed_at timestamptz not null default now()
);
create index if not exists journey_consent_changes_user_idx on journey_consent_changes (user_id, changed_at desc, id desc);

-- A goal's transactionId counts once per organization, whichever session repeats it.
create table if not exists journey_transactions (
  organization_id bigint not null references organizations (id) on delete cascade,
  transaction_id text not null check (length(transaction_id) between 1 and 200),
  session_id uuid not null,
  event_id uuid not null,
  goal_type text,
  goal_value double precision,
  currency text,
  recorded_at timestamptz not null default now(),
  primary key (organization_id, transaction_id)
);

-- The deployment's blind-index key: random, made once, stored sealed with the PII keyring, so
-- rotating PII_ENCRYPTION_KEY keeps every index valid.
create table if not exists journey_index_keys (
  id smallint primary key check (id = 1),
  key_sealed text not null,
  created_at timestamptz not null default now()
);

-- =================================================================================================
-- Webhook delivery: the durable queue (one row per endpoint and event), the log of every attempt,
-- the endpoint's failure streak and secret rotation window, and notices to the organization.

-- One organization has one endpoint, so (organization, event id) is (endpoint, event): a bus
-- message delivered twice enqueues nothing twice.
create table if not exists webhook_deliveries (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  event_id uuid not null,
  event_type text not null,
  -- The exact body, fixed at enqueue: every attempt signs and sends the same bytes.
  payload text not null,
  state text not null default 'pending' check (state in ('pending', 'succeeded', 'failed')),
  attempts integer not null default 0,
  -- When a pending delivery is due. A worker that claims it moves it forward by a lease, so a
  -- crashed instance's delivery comes due again by itself.
  next_attempt_at timestamptz not null default now(),
  -- Retries stop after this instant (the retry window, counted from enqueue or redelivery).
  retry_until timestamptz not null,
  last_status integer,
  last_error text,
  last_latency_ms integer,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  completed_at timestamptz,
  unique (organization_id, event_id)
);
create index if not exists webhook_deliveries_due_idx on webhook_deliveries (next_attempt_at) where state = 'pending';
create index if not exists webhook_deliveries_organization_idx on webhook_deliveries (organization_id, id desc);

create table if not exists webhook_delivery_attempts (
  id bigint generated always as identity primary key,
  delivery_id bigint not null references webhook_deliveries (id) on delete cascade,
  attempt integer not null,
  started_at timestamptz not null,
  -- null when no HTTP answer came (refused address, DNS, connection, timeout)
  status integer,
  error text,
  latency_ms integer not null,
  -- the first few kilobytes of the answer
  response_body text,
  url text not null
);
create index if not exists webhook_delivery_attempts_delivery_idx on webhook_delivery_attempts (delivery_id, attempt);

-- Things the organization must be told (an endpoint disabled after repeated failures, ...).
create table if not exists organization_notices (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  code text not null,
  message text not null,
  created_at timestamptz not null default now()
);
create index if not exists organization_notices_organization_idx on organization_notices (organization_id, id desc);

-- =================================================================================================
-- People: memberships of console accounts in organizations, partner sign-in links, one-time sign-in
-- tokens, console sessions, the replay store of partner tokens and the audit log.

create table if not exists memberships (
  organization_id bigint not null references organizations (id) on delete cascade,
  user_id bigint not null references users (id) on delete cascade,
  role text not null check (role in ('owner', 'admin', 'developer', 'analyst')),
  created_at timestamptz not null default now(),
  primary key (organization_id, user_id)
);
create index if not exists memberships_user_idx on memberships (user_id);

-- The partner's user (its `sub`) ↔ our account. One partner account maps to one of ours, and an
-- account is linked to one partner service at most.
create table if not exists partner_links (
  partner_id bigint not null references sso_partners (id) on delete cascade,
  subject text not null,
  user_id bigint not null unique references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  primary key (partner_id, subject)
);

-- Every jti a partner's token used, until the token could no longer be valid anyway.
create table if not exists sso_token_uses (
  partner_id bigint not null references sso_partners (id) on delete cascade,
  jti text not null,
  expires_at timestamptz not null,
  primary key (partner_id, jti)
);
create index if not exists sso_token_uses_expiry_idx on sso_token_uses (expires_at);

-- One-time tokens sent by mail or handed out: only their SHA-256 is kept. `purpose` says what
-- following one does; the other columns carry what that needs (sealed where it is PII).
create table if not exists sign_in_tokens (
  token_hash bytea primary key,
  purpose text not null check (purpose in ('sign_in', 'sso_link', 'sso_signup', 'sso_consent')),
  user_id bigint references users (id) on delete cascade,
  -- the address the token was sent to, as a blind index: the per-address rate limit counts by it
  email_index bytea,
  partner_id bigint references sso_partners (id) on delete cascade,
  -- sealed JSON: the partner's claims a signup or link needs (sub, email, name) and the language
  claims_sealed text,
  created_at timestamptz not null default now(),
  expires_at timestamptz not null,
  used_at timestamptz
);
create index if not exists sign_in_tokens_email_idx on sign_in_tokens (email_index, created_at);
create index if not exists sign_in_tokens_expiry_idx on sign_in_tokens (expires_at);

-- Console sessions: the cookie holds a random token, the table its SHA-256.
create table if not exists console_sessions (
  id bigint generated always as identity primary key,
  token_hash bytea not null unique,
  user_id bigint not null references users (id) on delete cascade,
  created_at timestamptz not null default now(),
  last_seen_at timestamptz not null default now(),
  expires_at timestamptz not null,
  revoked_at timestamptz,
  -- how the session began: email, login_link, sso
  method text not null,
  user_agent text,
  ip_sealed text
);
create index if not exists console_sessions_user_idx on console_sessions (user_id) where revoked_at is null;

-- Security-relevant actions, written by the core layer. The actor is who did it: the operator,
-- a console user, a partner's sign-in, or the service itself.
create table if not exists audit_log (
  id bigint generated always as identity primary key,
  organization_id bigint references organizations (id) on delete cascade,
  actor_type text not null check (actor_type in ('operator', 'user', 'partner', 'system')),
  actor_user_id bigint references users (id) on delete set null,
  action text not null,
  target text,
  details jsonb not null default '{}',
  ip_sealed text,
  created_at timestamptz not null default now()
);
create index if not exists audit_log_organization_idx on audit_log (organization_id, created_at desc, id desc);
create index if not exists audit_log_user_idx on audit_log (actor_user_id, created_at desc);

-- =================================================================================================
-- An organization's own goal types, listed in the console next to the preset ones (which live in
-- code: src/core/links/goal-types.ts). A link's goalType stays free text, so removing a type here
-- changes no link. Names are unique per organization whatever their case: `Purchase` next to
-- `purchase` would only split one goal in two.
create table if not exists goal_types (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  name text not null check (length(name) between 1 and 50),
  description text check (length(description) <= 200),
  created_at timestamptz not null default now(),
  created_by bigint references users (id) on delete set null
);
create unique index if not exists goal_types_organization_name_key on goal_types (organization_id, lower(name));
