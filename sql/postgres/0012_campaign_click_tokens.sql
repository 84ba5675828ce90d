-- resolve-campaign looks for the click a device made on one campaign, consumed or not (the app may
-- have opened with its token already): the campaign's tokens, newest first.
create index if not exists deep_link_tokens_campaign_idx
  on deep_link_tokens (campaign_id, created_at desc) where campaign_id is not null;
