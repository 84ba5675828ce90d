-- Webhook delivery: the durable queue (one row per endpoint and event), the log of every attempt,
-- the endpoint's failure streak and secret rotation window, and notices to the organization.

-- Until when the previous secret is still signed with (null: as long as it is kept).
alter table webhook_endpoints add column if not exists previous_secret_valid_until timestamptz;
-- Failed attempts in a row, across deliveries, and when the streak began; a success resets both.
alter table webhook_endpoints add column if not exists consecutive_failures integer not null default 0;
alter table webhook_endpoints add column if not exists failing_since timestamptz;
alter table webhook_endpoints add column if not exists disabled_at timestamptz;
alter table webhook_endpoints add column if not exists disabled_reason text;

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
