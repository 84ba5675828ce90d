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
  updated_at timestamptz not null default now()
);

-- Only the SHA-256 of a key is kept; the key itself is shown once, at creation.
create table if not exists api_keys (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  key_hash bytea not null unique,
  -- the first characters, so a person can tell keys apart in a list
  key_prefix text not null,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
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
  deletion_requested_at timestamptz
);
create unique index if not exists custom_domains_domain_name_key on custom_domains (lower(domain_name));
create index if not exists custom_domains_organization_idx on custom_domains (organization_id, created_at desc, id desc);

create table if not exists webhook_endpoints (
  organization_id bigint primary key references organizations (id) on delete cascade,
  url text not null,
  -- AES-256-GCM sealed; the previous secret stays valid during a rotation
  secret_sealed text not null,
  previous_secret_sealed text,
  events text[] not null,
  enabled boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
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
  created_at timestamptz not null default now()
);
