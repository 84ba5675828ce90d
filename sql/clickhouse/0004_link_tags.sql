-- Statistics by tag: each link's current tags, copied from PostgreSQL (link_tag_changes, a row per
-- change) and joined to the clicks or the rollups at query time. Clicks do not carry tags: a tag
-- renamed, taken off a link or deleted then changes every figure, past clicks included, as a
-- person reading "clicks by tag" expects (docs/clickhouse.md, "Clicks by tag").
CREATE TABLE IF NOT EXISTS link_tags
(
  `organization_id` UInt64 COMMENT 'Organization (tenant) owning the link',
  `link_type` Enum8('url' = 1, 'campaign' = 2) COMMENT 'url or campaign',
  `link_id` UInt64 COMMENT 'Id of the short URL or campaign (PostgreSQL short_urls.id or campaigns.id, per link_type)',
  `tag_ids` Array(UInt64) COMMENT 'The link''s tags after the change (PostgreSQL tags.id; names and colours stay there); empty when it has none left or was deleted',
  `version` UInt64 COMMENT 'PostgreSQL link_tag_changes.id of the change: the row with the highest is the link''s current tags',
  `changed_at` DateTime64(3, 'UTC') COMMENT 'When the tags changed in PostgreSQL, UTC'
)
ENGINE = ReplacingMergeTree(version)
ORDER BY (organization_id, link_type, link_id)
SETTINGS non_replicated_deduplication_window = 10000
COMMENT 'Each link''s current tags (one row per link after merges; read with FINAL or argMax(tag_ids, version)). Join on (organization_id, link_type, link_id) to clicks or the rollups to count by tag; a link never tagged has no row.';
