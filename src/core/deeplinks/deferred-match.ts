// Deferred deep linking: which click a first launch of the app comes from. Deterministic first (a
// token the app holds: Play's Install Referrer, the landing page's clipboard code on iOS, then a
// token carried through the clipboard or a URL),
// then probabilistic over the app's open tokens (match-score.ts). A token is consumed once, by a
// conditional update, so two launches racing for one click cannot both get it.
import type { DeepLinkToken, DeepLinkTokensRepo } from '../../oltp/deep-link-tokens.repo.js';
import type { MatchType, MissReason } from '../../shared/deferred-match-outcomes.js';
import { normalizeIp } from '../../shared/ip.js';
import {
  agentSignals,
  ipPrefix,
  normalizeLanguage,
  normalizeOsVersion,
  normalizeResolution,
  type OsFamily,
} from './device-signals.js';
import { clipboardCodeIn } from './clipboard-code.js';
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
  /** What the app read from the pasteboard at first launch: the landing page's `sp:…` code. */
  clipboardToken?: string | undefined;
  /** A token the app found on the clipboard or in the URL it was opened with. */
  token?: string | undefined;
}

export type ResolveMethod = 'referrer' | 'clipboard' | 'token' | 'fingerprint';

/** The deterministic paths: a token the app holds, and how it came by it. */
type HeldMethod = Exclude<ResolveMethod, 'fingerprint'>;

export { MISS_REASONS, type MatchType, type MissReason } from '../../shared/deferred-match-outcomes.js';

/** What agreed: the deterministic source of a held token, or the device signals of a fingerprint match. */
export const MATCHED_SIGNALS = [
  'referrer',
  'clipboard',
  'token',
  'ip',
  'ipNetwork',
  'os',
  'osVersion',
  'deviceModel',
  'resolution',
  'language',
  'timeZone',
] as const;
export type MatchedSignal = (typeof MATCHED_SIGNALS)[number];

export type DeferredOutcome =
  | {
      matched: true;
      method: ResolveMethod;
      matchType: MatchType;
      confidence: number;
      signals: MatchedSignal[];
      token: DeepLinkToken;
    }
  | { matched: false; method: ResolveMethod; reason: MissReason; bestScore: number };

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
export function tokenIn(text: string | undefined): string | null {
  if (!text) return null;
  const trimmed = text.trim();
  return TOKEN_PATTERN.test(trimmed) ? trimmed : tokenFromReferrer(trimmed);
}

export function createDeferredMatcher(deps: { tokens: DeepLinkTokensRepo; threshold?: number }) {
  const threshold = deps.threshold ?? MATCH_THRESHOLD;

  /** A token the app holds: matched, settled as a miss (expired or taken), or no help (look further). */
  async function deterministic(
    appId: number,
    stored: DeepLinkToken | undefined,
    method: HeldMethod,
  ): Promise<DeferredOutcome | undefined> {
    if (!stored || stored.appId !== appId) return undefined;
    if (stored.expiresAt.getTime() <= Date.now()) return { matched: false, method, reason: 'expired', bestScore: 0 };
    const consumed = stored.consumedAt ? undefined : await deps.tokens.consume(appId, stored.token, method);
    // This device's own click was matched before: never hand it someone else's instead.
    if (!consumed) return { matched: false, method, reason: 'already_consumed', bestScore: 0 };
    const matchType = method === 'clipboard' ? 'clipboard' : 'referrer';
    return { matched: true, method, matchType, confidence: 100, signals: [method], token: consumed };
  }

  /**
   * Why no open click matched: a consumed or expired click that would have is the reason, else
   * the best open candidate's score, else no candidate at all.
   */
  async function explainMiss(
    appId: number,
    launch: LaunchSignals,
    near: Parameters<DeepLinkTokensRepo['closedNear']>[1],
    bestScore: number | null,
  ): Promise<DeferredOutcome> {
    const closedTokens = await deps.tokens.closedNear(appId, near);
    const closed = chooseMatch(rankCandidates(launch, closedTokens.map(clickSignals)), threshold);
    if (closed.matched) {
      const best = closedTokens.find((t) => t.token === closed.best.candidate.token);
      const reason = best?.consumedAt ? 'already_consumed' : 'expired';
      return { matched: false, method: 'fingerprint', reason, bestScore: closed.best.score };
    }
    if (bestScore === null) return { matched: false, method: 'fingerprint', reason: 'no_candidate', bestScore: 0 };
    return { matched: false, method: 'fingerprint', reason: 'below_threshold', bestScore };
  }

  return {
    /**
     * The click of a campaign the launching device most likely made (its token), scored as a
     * first launch is, at the same threshold; nothing is consumed. Undefined when none fits.
     */
    async campaignClickOf(input: LaunchInput, campaignId: number): Promise<DeepLinkToken | undefined> {
      const launch = launchSignals(input);
      const candidates = await deps.tokens.campaignClicks(input.appId, campaignId, {
        ips: launch.ips,
        ipPrefixes: launch.ipPrefixes,
        resolutions: launch.resolution ? [launch.resolution] : [],
      });
      const choice = chooseMatch(rankCandidates(launch, candidates.map(clickSignals)), threshold);
      return choice.matched ? candidates.find((t) => t.token === choice.best.candidate.token) : undefined;
    },

    async resolve(input: LaunchInput): Promise<DeferredOutcome> {
      const referrer = tokenFromReferrer(input.referrer);
      const clipboard = clipboardCodeIn(input.clipboardToken);
      const token = tokenIn(input.token);
      const held: (readonly [() => Promise<DeepLinkToken | undefined>, HeldMethod])[] = [
        ...(referrer ? [[() => deps.tokens.get(referrer), 'referrer'] as const] : []),
        ...(clipboard ? [[() => deps.tokens.byClipboardCode(clipboard), 'clipboard'] as const] : []),
        ...(token ? [[() => deps.tokens.get(token), 'token'] as const] : []),
      ];
      for (const [find, method] of held) {
        const outcome = await deterministic(input.appId, await find(), method);
        if (outcome) return outcome;
      }

      const launch = launchSignals(input);
      const near = {
        ips: launch.ips,
        ipPrefixes: launch.ipPrefixes,
        resolutions: launch.resolution ? [launch.resolution] : [],
      };
      const candidates = await deps.tokens.candidates(input.appId, near);
      const choice = chooseMatch(rankCandidates(launch, candidates.map(clickSignals)), threshold);
      // A click of another OS or device model is no candidate for this one.
      if (!choice.matched)
        return explainMiss(input.appId, launch, near, choice.reason === 'below_threshold' ? choice.bestScore : null);
      for (const scored of [choice.best, ...choice.runnersUp]) {
        const consumed = await deps.tokens.consume(input.appId, scored.candidate.token, 'fingerprint');
        if (consumed) {
          return {
            matched: true,
            method: 'fingerprint',
            matchType: 'fingerprint',
            confidence: scored.score,
            signals: scored.signals,
            token: consumed,
          };
        }
      }
      return { matched: false, method: 'fingerprint', reason: 'already_consumed', bestScore: choice.best.score };
    },
  };
}

export type DeferredMatcher = ReturnType<typeof createDeferredMatcher>;
