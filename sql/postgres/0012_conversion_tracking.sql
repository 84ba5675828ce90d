-- Conversion tracking on short URLs and campaigns: when on, the redirect appends a signed click id
-- (`signpost_token`) to the destination and records it on the click, so the web SDK's goals on
-- that page tie to the click and the variant it was sent to (src/core/clicks/click-token.ts).
-- Read with the link into the redirect's cache: a link without it pays nothing per click.
alter table short_urls add column if not exists conversion_tracking boolean not null default false;

alter table campaigns add column if not exists conversion_tracking boolean not null default false;
