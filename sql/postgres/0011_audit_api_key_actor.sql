-- A Service API key is an actor of the audit trail now (it can set the organization's webhook);
-- the key's id is in the entry's details.
alter table audit_log drop constraint if exists audit_log_actor_type_check;
alter table audit_log add constraint audit_log_actor_type_check
  check (actor_type in ('operator', 'user', 'partner', 'api_key', 'system'));
