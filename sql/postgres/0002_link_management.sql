-- Link management: tags, passwords, click limits, the destination after expiry, notes and the
-- archive, on short URLs and campaigns alike; the answers kept for Idempotency-Key retries.

-- An organization's tags. Names compare case-insensitively; the first spelling is kept.
create table if not exists tags (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  name text not null check (length(name) between 1 and 50),
  -- #rrggbb
  color text not null check (color ~ '^#[0-9a-f]{6}$'),
  created_at timestamptz not null default now()
);
create unique index if not exists tags_organization_name_key on tags (organization_id, lower(name));

-- A link's tags are ids in an array on its row: a create or an update writes them in the same
-- statement as the rest of the link, a filter is an index look-up, and a click can carry them to
-- ClickHouse as they are (the redirect reads the row anyway).
alter table short_urls
  add column if not exists tag_ids bigint[] not null default '{}',
  -- scrypt (src/shared/password-hash.ts); null: no password
  add column if not exists password_hash text,
  add column if not exists click_limit integer check (click_limit >= 1),
  add column if not exists click_limit_url text,
  -- Clicks counted against click_limit: the record's clickCount when the limit was set, then every
  -- instance's clicks, added about once a second. Only kept while a limit is set.
  add column if not exists limit_clicks bigint not null default 0,
  add column if not exists expired_url text,
  add column if not exists note text check (length(note) <= 2000),
  add column if not exists archived_at timestamptz;
create index if not exists short_urls_tags_idx on short_urls using gin (tag_ids);

alter table campaigns
  add column if not exists tag_ids bigint[] not null default '{}',
  add column if not exists password_hash text,
  add column if not exists click_limit integer check (click_limit >= 1),
  add column if not exists click_limit_url text,
  add column if not exists limit_clicks bigint not null default 0,
  add column if not exists expired_url text,
  add column if not exists note text check (length(note) <= 2000),
  add column if not exists archived_at timestamptz;
create index if not exists campaigns_tags_idx on campaigns using gin (tag_ids);

-- The first answer to a create sent with an Idempotency-Key, replayed to a retry for 24 hours.
-- request_hash tells a retry from another request that reuses the key (422).
create table if not exists idempotent_requests (
  organization_id bigint not null references organizations (id) on delete cascade,
  key text not null,
  operation text not null,
  request_hash text not null,
  status_code integer,
  response jsonb,
  created_at timestamptz not null default now(),
  primary key (organization_id, operation, key)
);
create index if not exists idempotent_requests_created_idx on idempotent_requests (created_at);
