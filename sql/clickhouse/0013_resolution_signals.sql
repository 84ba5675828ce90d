-- What agreed when a first launch matched its click (resolve-fingerprint's `signals`), so the
-- quality of deferred matching can be read per signal; and the reasons a first launch now hears.
ALTER TABLE deeplink_resolutions
  ADD COLUMN IF NOT EXISTS signals Array(LowCardinality(String)) AFTER failure_reason;

ALTER TABLE deeplink_resolutions
  COMMENT COLUMN signals 'What agreed on a first launch''s match: referrer or token for a held token, else ip, ipNetwork, os, osVersion, deviceModel, resolution, language, timeZone; empty otherwise',
  COMMENT COLUMN failure_reason 'Why it did not match; a first launch: no_candidate, below_threshold, already_consumed, expired or link_deleted (older rows: unknown_token, expired_token, os_mismatch, ...); a re-engagement: unknown_token, expired_token, unknown_code, link_expired, link_deleted; empty when matched',
  COMMENT COLUMN confidence 'Match confidence, 0 to 100; on a missed first launch the score of the best click found';
