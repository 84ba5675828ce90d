-- Who made a campaign or a custom domain, so records can name their creator: the console member,
-- or the Service API key for API-made campaigns (the operator's domains name no one). Rows made
-- before keep what they showed, the organization's name (campaigns.created_by).
alter table campaigns add column if not exists created_by_user_id bigint references users (id) on delete set null;
alter table campaigns add column if not exists created_by_api_key_id bigint references api_keys (id) on delete set null;
alter table custom_domains add column if not exists created_by_user_id bigint references users (id) on delete set null;
