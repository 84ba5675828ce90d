-- Scoped and expiring Service API keys. `scopes` empty: full access (every key issued before);
-- {read}: a read-only key, GET requests only. A key past `expires_at` is refused like a deleted one.
alter table api_keys add column if not exists scopes text[] not null default '{}';
alter table api_keys add column if not exists expires_at timestamptz;
