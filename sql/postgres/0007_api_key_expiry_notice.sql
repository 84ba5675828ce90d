-- The mail that warns of a Service API key's expiry: who issued the key in the console (null for
-- keys issued by the operator, through the Service API or before this column: their organization's
-- owners are told instead), and when the warning was sent, so each key is warned of once.
alter table api_keys add column if not exists created_by_user_id bigint references users (id) on delete set null;
alter table api_keys add column if not exists expiry_notified_at timestamptz;
-- The periodic job's question: live keys with an expiry, not yet warned of.
create index if not exists api_keys_expiry_notice_idx on api_keys (expires_at)
  where expires_at is not null and expiry_notified_at is null and revoked_at is null;
