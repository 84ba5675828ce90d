-- UTM parameters a click carried (utm_source, utm_medium, utm_campaign), as more dimensions of
-- click_dims_15m, for the console's UTM breakdowns: a second materialized view into the same
-- rollup, then the clicks already stored. Empty values are left out (most clicks carry none).
CREATE MATERIALIZED VIEW IF NOT EXISTS click_utm_15m_mv TO click_dims_15m AS
SELECT organization_id, link_type, link_id, toStartOfFifteenMinutes(ts) AS bucket,
  pair.1 AS dim, pair.2 AS value, count() AS clicks
FROM clicks
ARRAY JOIN [('utm_source', toString(utm_source)), ('utm_medium', toString(utm_medium)), ('utm_campaign', toString(utm_campaign))] AS pair
WHERE is_bot = 0 AND pair.2 != ''
GROUP BY organization_id, link_type, link_id, bucket, dim, value;

INSERT INTO click_dims_15m
SELECT organization_id, link_type, link_id, toStartOfFifteenMinutes(ts) AS bucket, pair.1 AS dim, pair.2 AS value, count() AS clicks
FROM clicks
ARRAY JOIN [('utm_source', toString(utm_source)), ('utm_medium', toString(utm_medium)), ('utm_campaign', toString(utm_campaign))] AS pair
WHERE is_bot = 0 AND pair.2 != ''
GROUP BY organization_id, link_type, link_id, bucket, dim, value;
