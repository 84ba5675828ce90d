-- A claimed DNS check holds its domain until it ends (or its lease runs out, when the instance
-- died mid-check): last_checked_at alone let another instance claim the domain again while a check
-- slower than the interval was still waiting for DNS, and ask a second time for nothing.
alter table custom_domains add column if not exists check_claimed_until timestamptz;
