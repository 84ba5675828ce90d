-- Region and city of each click, when the GeoIP database (GEOIP_DB) can tell them: a City database
-- such as MaxMind GeoLite2 City (ISO 3166-2 regions and cities) or DB-IP Lite City (cities). With
-- the bundled country-only database, and on rows written before this migration, both stay '', which
-- means unknown. Statistics break clicks down by them (regionStats, cityStats) and filter on them.
ALTER TABLE clicks
  ADD COLUMN IF NOT EXISTS `region` LowCardinality(String) DEFAULT '' COMMENT 'ISO 3166-2 code of the first-level subdivision from the IP address (KR-11, US-CA), upper case; empty when unknown (a database without regions, rows before migration 0003)' AFTER `country`,
  ADD COLUMN IF NOT EXISTS `city` LowCardinality(String) DEFAULT '' COMMENT 'English name of the city from the IP address, as the GeoIP database spells it; empty when unknown (a database without cities, rows before migration 0003)' AFTER `region`;

-- The rollups count clicks per region and per city as two more dimensions of click_dims_15m and
-- click_dims_1h, fed by views of their own beside the existing ones: those are left as they are, so
-- no insert into clicks runs while a view it feeds is being replaced. Unknown values are left out,
-- as the UTM dimensions leave out empty ones: the raw table keeps them. Clicks written before this
-- migration have no region or city rows in the rollups.
ALTER TABLE click_dims_15m
  COMMENT COLUMN `dim` 'Dimension: country, device, os, browser, referrer, tracker, utm_source, utm_medium, utm_campaign, region or city';

ALTER TABLE click_dims_1h
  COMMENT COLUMN `dim` 'Dimension: country, device, os, browser, referrer, tracker, utm_source, utm_medium, utm_campaign, region or city';

CREATE MATERIALIZED VIEW IF NOT EXISTS click_geo_15m_mv TO click_dims_15m
(
  `organization_id` UInt64,
  `link_type` Enum8('url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `dim` String,
  `value` LowCardinality(String),
  `clicks` UInt64
)
COMMENT 'Feeds click_dims_15m (region, city; known values only) from each insert into clicks. Internal.'
AS SELECT
  organization_id,
  link_type,
  link_id,
  toStartOfFifteenMinutes(ts) AS bucket,
  pair.1 AS dim,
  pair.2 AS value,
  count() AS clicks
FROM clicks
ARRAY JOIN [('region', toString(region)), ('city', toString(city))] AS pair
WHERE (is_bot = 0) AND ((pair.2) != '')
GROUP BY
  organization_id,
  link_type,
  link_id,
  bucket,
  dim,
  value;

CREATE MATERIALIZED VIEW IF NOT EXISTS click_geo_1h_mv TO click_dims_1h
(
  `organization_id` UInt64,
  `link_type` Enum8('url' = 1, 'campaign' = 2),
  `link_id` UInt64,
  `bucket` DateTime('UTC'),
  `dim` String,
  `value` LowCardinality(String),
  `clicks` UInt64
)
COMMENT 'Feeds click_dims_1h (region, city; known values only) from each insert into clicks. Internal.'
AS SELECT
  organization_id,
  link_type,
  link_id,
  toStartOfHour(ts) AS bucket,
  pair.1 AS dim,
  pair.2 AS value,
  count() AS clicks
FROM clicks
ARRAY JOIN [('region', toString(region)), ('city', toString(city))] AS pair
WHERE (is_bot = 0) AND ((pair.2) != '')
GROUP BY
  organization_id,
  link_type,
  link_id,
  bucket,
  dim,
  value;
