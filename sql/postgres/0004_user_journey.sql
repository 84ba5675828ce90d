-- User journey: sessions across web and app, user identities (identify), the consent history the
-- law asks for, and purchase/goal transaction ids seen once per organization. Events, transitions
-- and funnel stages themselves live in ClickHouse (sql/clickhouse/0005).

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
  -- mobile (app key proven), browser (app id only)
  channel text not null check (channel in ('mobile', 'browser', 'service')),
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
