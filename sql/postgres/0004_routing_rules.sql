-- Routing rules and A/B tests on short URLs and campaigns alike (contract: "Routing rules and A/B
-- tests"): an ordered list of {conditions, url}, the first rule a click meets sends it to its url;
-- and 2 to 10 {url, weight} variants that share the clicks no rule caught. Kept as jsonb on the
-- link's row: the redirect reads the row anyway and compiles them once into its cache, and the API
-- validates them before they are written. '[]': none.
alter table short_urls
  add column if not exists routing_rules jsonb not null default '[]'::jsonb,
  add column if not exists variants jsonb not null default '[]'::jsonb;

alter table campaigns
  add column if not exists routing_rules jsonb not null default '[]'::jsonb,
  add column if not exists variants jsonb not null default '[]'::jsonb;
