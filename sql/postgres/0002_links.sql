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
  updated_at timestamptz not null default now()
);
create index if not exists mobile_apps_organization_idx on mobile_apps (organization_id, created_at desc, id desc);

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
  created_by text not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
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
