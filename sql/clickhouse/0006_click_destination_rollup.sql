-- Clicks per destination (destinationStats) from the rollups: two more dimensions fed beside the
-- others into click_dims_15m and click_dims_1h.
-- - `destination`, the destination_url a rule or variant chose. Only clicks with one go in: a
--   link's other clicks went to its originalUrl, and their number is the period's clicks less these
--   (src/olap/click-stats.queries.ts).
-- - `tokens` (value `tied`), the clicks that carry a deep-link token or click id, to which
--   conversions can be tied: only when there are any is the query that ties them made.
-- A link without rules, variants, apps or conversion tracking thus has no such rows, and a read of
-- its statistics no longer touches the raw table.
ALTER TABLE click_dims_15m
  COMMENT COLUMN `dim` 'Dimension: country, device, os, browser, referrer, tracker, utm_source, utm_medium, utm_campaign, region, city, destination (the destination_url a routing rule or variant chose; clicks without one went to the link''s originalUrl) or tokens (value tied: clicks carrying a deep-link token or click id)';

ALTER TABLE click_dims_1h
  COMMENT COLUMN `dim` 'Dimension: country, device, os, browser, referrer, tracker, utm_source, utm_medium, utm_campaign, region, city, destination (the destination_url a routing rule or variant chose; clicks without one went to the link''s originalUrl) or tokens (value tied: clicks carrying a deep-link token or click id)';

-- The clicks written before this migration, then the views for those after it. Migrations run
-- before this process writes clicks; an instance of an earlier version writing meanwhile could
-- add clicks between the two, which would count under the link's originalUrl.
INSERT INTO click_dims_15m (organization_id, link_type, link_id, bucket, dim, value, clicks)
SELECT organization_id, link_type, link_id, toStartOfFifteenMinutes(ts) AS bucket, pair.1 AS dim, pair.2 AS value, count()
FROM clicks
ARRAY JOIN [('destination', destination_url), ('tokens', if(deep_link_token != '', 'tied', ''))] AS pair
WHERE (is_bot = 0) AND ((pair.2) != '')
GROUP BY organization_id, link_type, link_id, bucket, dim, value;

INSERT INTO click_dims_1h (organization_id, link_type, link_id, bucket, dim, value, clicks)
SELECT organization_id, link_type, link_id, toStartOfHour(ts) AS bucket, pair.1 AS dim, pair.2 AS value, count()
FROM clicks
ARRAY JOIN [('destination', destination_url), ('tokens', if(deep_link_token != '', 'tied', ''))] AS pair
WHERE (is_bot = 0) AND ((pair.2) != '')
GROUP BY organization_id, link_type, link_id, bucket, dim, value;

CREATE MATERIALIZED VIEW IF NOT EXISTS click_destination_15m_mv TO click_dims_15m
(
  `organization_id` UInt64,
  `link_type` Enum8('url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `dim` String,
  `value` LowCardinality(String),
  `clicks` UInt64
)
COMMENT 'Feeds click_dims_15m (destination: the destination_url a routing rule or variant chose; tokens: clicks carrying a deep-link token or click id; other clicks left out) from each insert into clicks. Internal.'
AS SELECT
  organization_id,
  link_type,
  link_id,
  toStartOfFifteenMinutes(ts) AS bucket,
  pair.1 AS dim,
  pair.2 AS value,
  count() AS clicks
FROM clicks
ARRAY JOIN [('destination', destination_url), ('tokens', if(deep_link_token != '', 'tied', ''))] AS pair
WHERE (is_bot = 0) AND ((pair.2) != '')
GROUP BY
  organization_id,
  link_type,
  link_id,
  bucket,
  dim,
  value;

CREATE MATERIALIZED VIEW IF NOT EXISTS click_destination_1h_mv TO click_dims_1h
(
  `organization_id` UInt64,
  `link_type` Enum8('url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `dim` String,
  `value` LowCardinality(String),
  `clicks` UInt64
)
COMMENT 'Feeds click_dims_1h (destination: the destination_url a routing rule or variant chose; tokens: clicks carrying a deep-link token or click id; other clicks left out) from each insert into clicks. Internal.'
AS SELECT
  organization_id,
  link_type,
  link_id,
  toStartOfHour(ts) AS bucket,
  pair.1 AS dim,
  pair.2 AS value,
  count() AS clicks
FROM clicks
ARRAY JOIN [('destination', destination_url), ('tokens', if(deep_link_token != '', 'tied', ''))] AS pair
WHERE (is_bot = 0) AND ((pair.2) != '')
GROUP BY
  organization_id,
  link_type,
  link_id,
  bucket,
  dim,
  value;
