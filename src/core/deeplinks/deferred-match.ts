// Deferred deep linking: which click a first launch of the app comes from. Deterministic first (a
// token the app holds: Play's Install Referrer, then one carried through the clipboard or a URL),
// then probabilistic over the app's open tokens (match-score.ts). A token is consumed once, by a
// conditional update, so two launches racing for one click cannot both get it.
import type { DeepLinkToken, DeepLinkTokensRepo } from '../../oltp/deep-link-tokens.repo.js';
import { normalizeIp } from '../../shared/ip.js';
import {
  agentSignals,
  ipPrefix,
  normalizeLanguage,
  normalizeOsVersion,
  normalizeResolution,
  type OsFamily,
} from './device-signals.js';
import { TOKEN_PATTERN, tokenFromReferrer } from './landing-addresses.js';
import { chooseMatch, MATCH_THRESHOLD, rankCandidates, type ClickSignals, type LaunchSignals } from './match-score.js';

export interface LaunchInput {
  appId: number;
  platform: OsFamily;
  userAgent: string;
  /** The address the app reports, and the one its request came from. */
  ipAddress: string;
  requestIp: string;
  resolution?: string | undefined;
  osVersion?: string | undefined;
  deviceModel?: string | undefined;
  timeZone?: string | undefined;
  language?: string | undefined;
  /** Play Install Referrer string (`signpost_token=…&utm_source=…`). */
  referrer?: string | undefined;
  /** A token the app found on the clipboard or in the URL it was opened with. */
  token?: string | undefined;
}

export type ResolveMethod = 'referrer' | 'token' | 'fingerprint';

export type DeferredOutcome =
  | { matched: true; method: ResolveMethod; matchType: 'referrer' | 'fingerprint'; confidence: number; token: DeepLinkToken }
  | { matched: false; method: ResolveMethod; failureReason: string; bestScore: number };

export function launchSignals(input: LaunchInput): LaunchSignals {
  const agent = agentSignals(input.userAgent);
  const ips = [...new Set([input.ipAddress, input.requestIp].filter(Boolean).map(normalizeIp))];
  return {
    ips,
    ipPrefixes: [...new Set(ips.map(ipPrefix))],
    os: agent.os ?? input.platform,
    osVersion: normalizeOsVersion(input.osVersion) ?? agent.osVersion,
    deviceModel: input.deviceModel?.trim() || agent.deviceModel,
    resolution: normalizeResolution(input.resolution),
    timeZone: input.timeZone?.trim() || null,
    language: normalizeLanguage(input.language),
  };
}

function clickSignals(t: DeepLinkToken): ClickSignals {
  return {
    token: t.token,
    createdAt: t.createdAt.getTime(),
    ip: t.ip,
    ipPrefix: t.ipPrefix,
    os: (t.os as OsFamily | null) ?? t.platform,
    osVersion: t.osVersion,
    deviceModel: t.deviceModel,
    resolution: t.resolution,
    pixelRatio: t.pixelRatio,
    timeZone: t.timeZone,
    language: t.language ?? normalizeLanguage(t.acceptLanguage),
  };
}

/** A raw token, or one inside a URL or referrer string (`…?signpost_token=…`). */
function tokenIn(text: string | undefined): string | null {
  if (!text) return null;
  const trimmed = text.trim();
  return TOKEN_PATTERN.test(trimmed) ? trimmed : tokenFromReferrer(trimmed);
}

export function createDeferredMatcher(deps: { tokens: DeepLinkTokensRepo; threshold?: number }) {
  const threshold = deps.threshold ?? MATCH_THRESHOLD;

  /** A token the app holds: matched, settled as a miss (taken already), or no help (look further). */
  async function deterministic(appId: number, token: string, method: 'referrer' | 'token'): Promise<DeferredOutcome | string> {
    const stored = await deps.tokens.get(token);
    if (!stored || stored.appId !== appId) return 'unknown_token';
    if (stored.expiresAt.getTime() <= Date.now()) return 'expired_token';
    const consumed = stored.consumedAt ? undefined : await deps.tokens.consume(appId, token, method);
    // This device's own click was matched before: never hand it someone else's instead.
    if (!consumed) return { matched: false, method, failureReason: 'already_consumed', bestScore: 0 };
    return { matched: true, method, matchType: 'referrer', confidence: 100, token: consumed };
  }

  return {
    async resolve(input: LaunchInput): Promise<DeferredOutcome> {
      const held: [string | null, 'referrer' | 'token'][] = [
        [tokenFromReferrer(input.referrer), 'referrer'],
        [tokenIn(input.token), 'token'],
      ];
      let firstMiss: string | undefined;
      for (const [token, method] of held) {
        if (!token) continue;
        const outcome = await deterministic(input.appId, token, method);
        if (typeof outcome !== 'string') return outcome;
        firstMiss ??= outcome;
      }

      const launch = launchSignals(input);
      const candidates = await deps.tokens.candidates(input.appId, {
        ips: launch.ips,
        ipPrefixes: launch.ipPrefixes,
        resolutions: launch.resolution ? [launch.resolution] : [],
      });
      const choice = chooseMatch(rankCandidates(launch, candidates.map(clickSignals)), threshold);
      if (!choice.matched) {
        // A referrer that named no usable token says more than "no candidate" does.
        const failureReason = choice.reason === 'no_candidate' && firstMiss ? firstMiss : choice.reason;
        return { matched: false, method: 'fingerprint', failureReason, bestScore: choice.bestScore };
      }
      for (const scored of [choice.best, ...choice.runnersUp]) {
        const consumed = await deps.tokens.consume(input.appId, scored.candidate.token, 'fingerprint');
        if (consumed) return { matched: true, method: 'fingerprint', matchType: 'fingerprint', confidence: scored.score, token: consumed };
      }
      return { matched: false, method: 'fingerprint', failureReason: 'already_consumed', bestScore: choice.best.score };
    },
  };
}

export type DeferredMatcher = ReturnType<typeof createDeferredMatcher>;
