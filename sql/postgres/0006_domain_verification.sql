-- Custom-domain DNS verification (src/domains/domain-verifier.ts). verification_failures (0001)
-- counts consecutive misses and last_checked_at (0001) doubles as the claim: an instance sets it
-- when it takes a domain, so the others skip the domain until it is due again.
alter table custom_domains add column if not exists verification_attempts integer not null default 0;
-- When the record was last found; only a domain whose record was once there can lose it (REVOKED).
alter table custom_domains add column if not exists record_seen_at timestamptz;
-- What the last check saw, for the operator: found, missing, wrong-target:<value>, error:<code>.
alter table custom_domains add column if not exists last_check_result text;
create index if not exists custom_domains_verification_due_idx on custom_domains (last_checked_at nulls first, id)
  where status in ('PENDING', 'VERIFIED', 'ACTIVE') and cname_record_name is not null;
