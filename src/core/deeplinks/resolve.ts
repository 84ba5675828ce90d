// Deep-link resolution for the mobile SDK: an app opened with a token (match), a first launch
// after install (deferred deep linking over the matcher), and links the app was opened with by
// address (short code or campaign alias, optionally under an app path). Every attempt, matched or
// not, is recorded as a deeplink_resolution event with its reason; first launches as app_install.
import type { Campaign } from '../../oltp/campaigns.repo.js';
import type { DeepLinkToken, DeepLinkTokensRepo } from '../../oltp/deep-link-tokens.repo.js';
import type { ShortUrl } from '../../oltp/short-urls.repo.js';
import { gone, type DomainError } from '../../shared/errors.js';
import { normalizeIp } from '../../shared/ip.js';
import type { DeferredMatcher, LaunchInput } from './deferred-match.js';
import { agentSignals } from './device-signals.js';
import { linkNotFound, tokenNotFound } from './not-found.js';
import { deviceKey, type DeepLinkRecorder } from './records.js';
import type { AppCaller, ClientInfo } from './caller.js';
import { isExpired, linkKeys, type LinkTargets, type LinkType, type TargetLink } from './targets.js';

/** What a first launch reports about itself, besides the app (the caller). */
export type LaunchReport = Omit<LaunchInput, 'appId' | 'platform'> & {
  /** The app's own install session id, kept on an organic install. */
  sessionId?: string | undefined;
};

export type DeferredResolution =
  | { matched: false }
  | { matched: true; matchType: 'referrer' | 'fingerprint'; confidence: number; token: string; link: TargetLink };

/** A link the app was opened with by address: the code, and the app path it stood under if any. */
export interface LinkAddress {
  code: string;
  appPath?: string | undefined;
}

export function createDeepLinkResolveService(deps: {
  tokens: Pick<DeepLinkTokensRepo, 'get' | 'open'>;
  matcher: DeferredMatcher;
  recorder: DeepLinkRecorder;
  targets: LinkTargets;
}) {
  const { tokens, matcher, recorder, targets } = deps;

  /** Who resolved, without PII: the app and the device's connection. */
  const userKeyOf = (caller: AppCaller, client: ClientInfo) => deviceKey([caller.app.id, normalizeIp(client.ip), client.userAgent]);

  /** A re-engagement attempt that found nothing, recorded with why. */
  function recordMiss(caller: AppCaller, client: ClientInfo, method: 'token' | 'shorturl' | 'campaign', reason: string) {
    recorder.resolution(caller.organization.id, {
      appId: caller.app.id, platform: caller.app.platform, method, matched: false, matchType: null, confidence: 0,
      failureReason: reason, linkType: null, linkId: null, reengagement: true, userKey: userKeyOf(caller, client),
    });
  }

  /**
   * The organization's short URL or campaign by its code, optionally under one of its apps' path;
   * not found for another organization's, gone once expired.
   */
  async function linkByAddress(caller: AppCaller, linkType: LinkType, address: LinkAddress, client: ClientInfo): Promise<TargetLink> {
    const { code, appPath } = address;
    const organizationId = caller.organization.id;
    const method = linkType === 'url' ? 'shorturl' : 'campaign';
    const fail = (reason: string, error: DomainError) => {
      recordMiss(caller, client, method, reason);
      return error;
    };
    const missing = () => fail('unknown_code', linkNotFound(linkType, code));
    const link = await targets.byCode(organizationId, code, linkType);
    if (!link) throw missing();
    if (appPath !== undefined && !(await targets.servesAppPath(organizationId, link, appPath))) throw missing();
    if (isExpired(link)) throw fail('link_expired', gone('LINK_EXPIRED', `the ${linkType === 'url' ? 'short URL' : 'campaign'} ${code} has expired`));
    recorder.resolution(organizationId, {
      appId: caller.app.id, platform: caller.app.platform, method, matched: true, matchType: 'direct', confidence: 100,
      failureReason: null, ...linkKeys(link), reengagement: true, userKey: userKeyOf(caller, client),
    });
    return link;
  }

  return {
    /** The link of a token the app was opened with; marks it opened and consumed, repeats answer the same link. */
    async match(caller: AppCaller, token: string, client: ClientInfo): Promise<{ token: DeepLinkToken; link: TargetLink }> {
      const organizationId = caller.organization.id;
      const stored = await tokens.get(token);
      const miss = (reason: string) => {
        recordMiss(caller, client, 'token', reason);
        return tokenNotFound();
      };
      if (!stored || stored.organizationId !== organizationId) throw miss('unknown_token');
      if (stored.expiresAt.getTime() <= Date.now()) throw miss('expired_token');
      const opened = await tokens.open(organizationId, stored.token);
      if (!opened) throw miss('expired_token');
      const link = await targets.load(organizationId, { linkType: stored.linkType, id: stored.linkId });
      if (!link) throw miss('link_deleted');
      recorder.resolution(organizationId, {
        appId: caller.app.id, platform: caller.app.platform, method: 'token', matched: true, matchType: 'token', confidence: 100,
        failureReason: null, ...linkKeys(link), reengagement: true, userKey: userKeyOf(caller, client),
      });
      if (opened.first) {
        for (const stage of ['APP_OPENED', 'DEEP_LINK_RESOLVED'] as const) {
          recorder.funnel(organizationId, { appId: caller.app.id, platform: caller.app.platform, sessionId: stored.token, stage, ...linkKeys(link), source: 'server' });
        }
      }
      return { token: stored, link };
    },

    /** Deferred deep link: the click a first launch comes from. Every call counts as an install, attributed or organic. */
    async resolveFirstLaunch(caller: AppCaller, launch: LaunchReport): Promise<DeferredResolution> {
      const organizationId = caller.organization.id;
      const { app } = caller;
      const { sessionId, ...report } = launch;
      const outcome = await matcher.resolve({ ...report, appId: app.id, platform: app.platform });
      const link = outcome.matched ? await targets.load(organizationId, { linkType: outcome.token.linkType, id: outcome.token.linkId }) : undefined;
      const agent = agentSignals(launch.userAgent);
      const userKey = deviceKey([app.id, normalizeIp(launch.ipAddress), launch.userAgent, launch.resolution]);
      const keys = link ? linkKeys(link) : { linkType: null, linkId: null };
      recorder.resolution(organizationId, {
        appId: app.id, platform: app.platform, method: outcome.method,
        matched: outcome.matched && link !== undefined,
        matchType: outcome.matched ? outcome.matchType : null,
        confidence: outcome.matched ? outcome.confidence : outcome.bestScore,
        failureReason: outcome.matched ? (link ? null : 'link_deleted') : outcome.failureReason,
        ...keys, reengagement: false, userKey,
      });
      const attributed = outcome.matched && link !== undefined;
      recorder.install(organizationId, {
        appId: app.id, platform: app.platform, ...keys,
        matchType: attributed ? outcome.matchType : 'organic',
        confidence: attributed ? outcome.confidence : 0,
        ip: normalizeIp(launch.ipAddress),
        osVersion: launch.osVersion ?? agent.osVersion,
        sessionId: attributed ? outcome.token.token : (sessionId ?? null),
      });
      if (!outcome.matched || !link) return { matched: false };
      for (const stage of ['APP_INSTALLED', 'APP_OPENED', 'DEEP_LINK_RESOLVED'] as const) {
        recorder.funnel(organizationId, { appId: app.id, platform: app.platform, sessionId: outcome.token.token, stage, ...keys, source: 'server' });
      }
      return { matched: true, matchType: outcome.matchType, confidence: outcome.confidence, token: outcome.token.token, link };
    },

    /** The short URL the app was opened with. */
    async shortUrl(caller: AppCaller, address: LinkAddress, client: ClientInfo): Promise<{ link: TargetLink; url: ShortUrl }> {
      const link = await linkByAddress(caller, 'url', address, client);
      if (link.linkType !== 'url') throw new Error('unreachable');
      return { link, url: link.url };
    },

    /** The campaign the app was opened with. */
    async campaign(caller: AppCaller, address: LinkAddress, client: ClientInfo): Promise<{ link: TargetLink; campaign: Campaign }> {
      const link = await linkByAddress(caller, 'campaign', address, client);
      if (link.linkType !== 'campaign') throw new Error('unreachable');
      return { link, campaign: link.campaign };
    },
  };
}

export type DeepLinkResolveService = ReturnType<typeof createDeepLinkResolveService>;
