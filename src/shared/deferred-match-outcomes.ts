// What a first launch's deferred deep-link resolution can come to, as the app hears it
// (CONTRACT.md): the resolver answers with these, the statistics count by them.

/** How a match was made: a held token (Install Referrer or URL), the clipboard code, or device signals. */
export const MATCH_TYPES = ['referrer', 'clipboard', 'fingerprint'] as const;
export type MatchType = (typeof MATCH_TYPES)[number];

/** Why a first launch got no link. */
export const MISS_REASONS = ['no_candidate', 'below_threshold', 'already_consumed', 'expired'] as const;
export type MissReason = (typeof MISS_REASONS)[number];
