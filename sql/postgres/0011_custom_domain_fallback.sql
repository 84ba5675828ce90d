-- Where the bare root of a custom domain (https://links.example.com/) sends a visitor: the
-- customer's own site, set by the operator. Null: the 404 page.
alter table custom_domains add column if not exists fallback_url text check (length(fallback_url) <= 2048);
