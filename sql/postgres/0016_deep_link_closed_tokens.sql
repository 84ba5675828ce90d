-- A first launch that matches no open click is told why: a click near it was already consumed
-- (by another launch, or the app opened with it) or expired (the purge keeps expired tokens a day
-- for this). The open-token indexes of 0003 hold only unconsumed tokens; these find the consumed
-- ones by address and network the same way.
create index if not exists deep_link_tokens_consumed_ip_idx
  on deep_link_tokens (app_id, ip, created_at desc) where consumed_at is not null;
create index if not exists deep_link_tokens_consumed_prefix_idx
  on deep_link_tokens (app_id, ip_prefix, created_at desc) where consumed_at is not null;

-- From this version ip_prefix holds the IPv6 /64 (was /48), the network one household or one
-- phone's mobile connection uses; tokens written before keep their /48 until they expire.
