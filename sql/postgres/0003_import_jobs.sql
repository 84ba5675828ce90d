-- Imports of links from other link services (Bitly, Shlink, Kutt, YOURLS, Dub, Rebrandly): one job
-- per request, run in the background page by page, and the source ids already imported, so that a
-- second run of the same source skips them.

create table if not exists import_jobs (
  id bigint generated always as identity primary key,
  organization_id bigint not null references organizations (id) on delete cascade,
  source text not null,
  -- The service's address the job reads from (the SaaS default, or the self-hosted install).
  base_url text not null,
  -- The person's token for that service, sealed (AES-256-GCM, PII_ENCRYPTION_KEY); never answered.
  token_sealed text not null,
  -- What the source needs besides the token (a Bitly group, a Rebrandly workspace).
  options jsonb not null default '{}'::jsonb,
  status text not null default 'queued'
    check (status in ('queued', 'running', 'completed', 'failed', 'cancelled')),
  -- Where the next page starts, as the source spells it; null before the first page.
  cursor text,
  -- How many links the source says it has, when it says so.
  total integer,
  imported integer not null default 0,
  skipped integer not null default 0,
  failed integer not null default 0,
  -- The first problems, [{sourceId, message}], capped by the runner.
  errors jsonb not null default '[]'::jsonb,
  -- Why the whole job failed (a refused token, an unreachable service).
  failure text,
  -- A running job belongs to the instance that claimed it until then; it renews the lease after
  -- every page, so a job whose instance died is claimed again once this has passed.
  lease_until timestamptz,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  updated_at timestamptz not null default now()
);
create index if not exists import_jobs_organization_idx on import_jobs (organization_id, id desc);
create index if not exists import_jobs_waiting_idx on import_jobs (id) where status in ('queued', 'running');

-- Which short URL each imported source link became. Unique per (organization, source, source id):
-- a link imported once is skipped by every later job of that source.
create table if not exists imported_links (
  organization_id bigint not null references organizations (id) on delete cascade,
  source text not null,
  source_id text not null,
  -- Deleting the short URL forgets the import: a later run brings the link back.
  short_url_id bigint not null references short_urls (id) on delete cascade,
  job_id bigint references import_jobs (id) on delete set null,
  created_at timestamptz not null default now(),
  primary key (organization_id, source, source_id)
);
