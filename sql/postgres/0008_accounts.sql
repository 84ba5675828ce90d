-- People: console accounts, their memberships in organizations, partner sign-in links, one-time
-- sign-in tokens, console sessions, the replay store of partner tokens and the audit log.
-- Addresses and names are PII: sealed with the PII keyring (src/shared/secret-box.ts) and found
-- through a blind index (HMAC of the lower-case address), so an address is unique whatever its case.

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

create table if not exists memberships (
  organization_id bigint not null references organizations (id) on delete cascade,
  user_id bigint not null references users (id) on delete cascade,
  role text not null check (role in ('owner', 'admin', 'developer', 'analyst')),
  created_at timestamptz not null default now(),
  primary key (organization_id, user_id)
);
create index if not exists memberships_user_idx on memberships (user_id);

-- A partner may name the organization its users join, and the role they get there.
alter table sso_partners add column if not exists organization_id bigint references organizations (id) on delete set null;
alter table sso_partners add column if not exists default_role text not null default 'developer'
  check (default_role in ('admin', 'developer', 'analyst'));
alter table sso_partners add column if not exists secret_rotated_at timestamptz;
alter table sso_partners add column if not exists updated_at timestamptz not null default now();

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

-- A console member may change a journey user's consents too: the history names that channel.
alter table journey_consent_changes drop constraint if exists journey_consent_changes_channel_check;
alter table journey_consent_changes add constraint journey_consent_changes_channel_check
  check (channel in ('mobile', 'browser', 'service', 'console'));
