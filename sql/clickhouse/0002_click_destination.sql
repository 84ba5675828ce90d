-- Where each click was sent (contract: "Routing rules and A/B tests"): the destination URL a rule,
-- a variant or the link itself chose, and which of them chose it. Statistics count clicks per
-- destination from it (destinationStats); rows written before this migration, and clicks on links
-- with neither rules nor variants, keep the defaults ('' for both), which mean the link's originalUrl.
ALTER TABLE clicks
  ADD COLUMN IF NOT EXISTS `destination_url` String DEFAULT '' COMMENT 'Destination the click was sent to as configured (a rule''s or variant''s url, or originalUrl), before UTM and click parameters were added; empty: the link''s originalUrl (a link without rules or variants, or a row before migration 0002)' AFTER `visitor_hash`,
  ADD COLUMN IF NOT EXISTS `route` LowCardinality(String) DEFAULT '' COMMENT 'What chose destination_url: original, rule:N or variant:N (N the 0-based position in the link''s routingRules or variants when clicked); empty as for destination_url' AFTER `destination_url`;
