-- Service API keys get a name, so people can tell them apart in the console's developer menu.
alter table api_keys add column if not exists name text check (length(name) between 1 and 100);
