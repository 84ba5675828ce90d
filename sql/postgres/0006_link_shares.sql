-- Shared statistics of a short URL (contract: "Filters and shared statistics"): an address anyone
-- may open to see the link's statistics, read-only. One share per link; only the SHA-256 of its
-- token is kept, so the address is shown once, when made. Sharing again replaces the token (the
-- old address stops working); deleting the share or the link ends it.
create table if not exists link_shares (
  short_url_id bigint primary key references short_urls (id) on delete cascade,
  organization_id bigint not null references organizations (id) on delete cascade,
  token_hash bytea not null unique,
  created_at timestamptz not null default now()
);
create index if not exists link_shares_organization_idx on link_shares (organization_id);
