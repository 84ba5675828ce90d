// Deep-link resolution for the mobile SDK: an app opened with a token (match), a first launch
// after install (deferred deep linking over the matcher), and links the app was opened with by
// address (short code or campaign alias, optionally under an app path). Every attempt, matched or
// not, is recorded as a deeplink_resolution event with its reason; first launches as app_install.
import type { Campaign } from '../../oltp/campaigns.repo.js';
import type { DeepLinkToken, DeepLinkTokensRepo } from '../../oltp/deep-link-tokens.repo.js';
import type { ShortUrl } from '../../oltp/short-urls.repo.js';
import { gone, type DomainError } from '../../shared/errors.js';
import { normalizeIp } from '../../shared/ip.js';
import {
  tokenIn,
  type DeferredMatcher,
  type LaunchInput,
  type MatchedSignal,
  type MatchType,
  type MissReason,
} from './deferred-match.js';
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
  | {
      matched: false;
      reason: MissReason /** The best open click's score, below the threshold. */;
      bestScore: number | null;
    }
  | {
      matched: true;
      matchType: MatchType;
      confidence: number;
      signals: MatchedSignal[];
      token: string;
      link: TargetLink;
    };

/**
 * What the app knows of the campaign click it was opened from: the cid of the address it was
 * opened with, the token it carried, or the device's own signals to find the click by.
 */
export interface CampaignClickHints {
  cid?: string | undefined;
  token?: string | undefined;
  device?: Omit<LaunchInput, 'appId' | 'platform' | 'referrer' | 'clipboardToken' | 'token'> | undefined;
}

export type CustomerIdSource = 'query' | 'token' | 'fingerprint';

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
  const userKeyOf = (caller: AppCaller, client: ClientInfo) =>
    deviceKey([caller.app.id, normalizeIp(client.ip), client.userAgent]);

  /** A re-engagement attempt that found nothing, recorded with why. */
  function recordMiss(
    caller: AppCaller,
    client: ClientInfo,
    method: 'token' | 'shorturl' | 'campaign',
    reason: string,
  ) {
    recorder.resolution(caller.organization.id, {
      appId: caller.app.id,
      platform: caller.app.platform,
      method,
      matched: false,
      matchType: null,
      confidence: 0,
      failureReason: reason,
      linkType: null,
      linkId: null,
      reengagement: true,
      userKey: userKeyOf(caller, client),
    });
  }

  /**
   * The organization's short URL or campaign by its code, optionally under one of its apps' path;
   * not found for another organization's, gone once expired.
   */
  async function linkByAddress(
    caller: AppCaller,
    linkType: LinkType,
    address: LinkAddress,
    client: ClientInfo,
  ): Promise<TargetLink> {
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
    if (isExpired(link))
      throw fail(
        'link_expired',
        gone('LINK_EXPIRED', `the ${linkType === 'url' ? 'short URL' : 'campaign'} ${code} has expired`),
      );
    recorder.resolution(organizationId, {
      appId: caller.app.id,
      platform: caller.app.platform,
      method,
      matched: true,
      matchType: 'direct',
      confidence: 100,
      failureReason: null,
      ...linkKeys(link),
      reengagement: true,
      userKey: userKeyOf(caller, client),
    });
    return link;
  }

  return {
    /** The link of a token the app was opened with; marks it opened and consumed, repeats answer the same link. */
    async match(
      caller: AppCaller,
      token: string,
      client: ClientInfo,
    ): Promise<{ token: DeepLinkToken; link: TargetLink }> {
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
        appId: caller.app.id,
        platform: caller.app.platform,
        method: 'token',
        matched: true,
        matchType: 'token',
        confidence: 100,
        failureReason: null,
        ...linkKeys(link),
        reengagement: true,
        userKey: userKeyOf(caller, client),
      });
      if (opened.first) {
        for (const stage of ['APP_OPENED', 'DEEP_LINK_RESOLVED'] as const) {
          recorder.funnel(organizationId, {
            appId: caller.app.id,
            platform: caller.app.platform,
            sessionId: stored.token,
            stage,
            ...linkKeys(link),
            source: 'server',
          });
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
      const link = outcome.matched
        ? await targets.load(organizationId, { linkType: outcome.token.linkType, id: outcome.token.linkId })
        : undefined;
      const agent = agentSignals(launch.userAgent);
      const userKey = deviceKey([app.id, normalizeIp(launch.ipAddress), launch.userAgent, launch.resolution]);
      const keys = link ? linkKeys(link) : { linkType: null, linkId: null };
      recorder.resolution(organizationId, {
        appId: app.id,
        platform: app.platform,
        method: outcome.method,
        matched: outcome.matched && link !== undefined,
        matchType: outcome.matched ? outcome.matchType : null,
        confidence: outcome.matched ? outcome.confidence : outcome.bestScore,
        failureReason: outcome.matched ? (link ? null : 'link_deleted') : outcome.reason,
        signals: outcome.matched ? outcome.signals : [],
        ...keys,
        reengagement: false,
        userKey,
      });
      const attributed = outcome.matched && link !== undefined;
      recorder.install(organizationId, {
        appId: app.id,
        platform: app.platform,
        ...keys,
        matchType: attributed ? outcome.matchType : 'organic',
        confidence: attributed ? outcome.confidence : 0,
        ip: normalizeIp(launch.ipAddress),
        osVersion: launch.osVersion ?? agent.osVersion,
        sessionId: attributed ? outcome.token.token : (sessionId ?? null),
      });
      if (!outcome.matched)
        return {
          matched: false,
          reason: outcome.reason,
          bestScore: outcome.reason === 'below_threshold' ? outcome.bestScore : null,
        };
      // The click matched but its link was deleted since: gone, as an expired one is.
      if (!link) return { matched: false, reason: 'expired', bestScore: null };
      for (const stage of ['APP_INSTALLED', 'APP_OPENED', 'DEEP_LINK_RESOLVED'] as const) {
        recorder.funnel(organizationId, {
          appId: app.id,
          platform: app.platform,
          sessionId: outcome.token.token,
          stage,
          ...keys,
          source: 'server',
        });
      }
      return {
        matched: true,
        matchType: outcome.matchType,
        confidence: outcome.confidence,
        signals: outcome.signals,
        token: outcome.token.token,
        link,
      };
    },

    /** The short URL the app was opened with. */
    async shortUrl(
      caller: AppCaller,
      address: LinkAddress,
      client: ClientInfo,
    ): Promise<{ link: TargetLink; url: ShortUrl }> {
      const link = await linkByAddress(caller, 'url', address, client);
      if (link.linkType !== 'url') throw new Error('unreachable');
      return { link, url: link.url };
    },

    /**
     * The campaign the app was opened with, and the customer id (cid) of the click it came from:
     * the one the app read from the address, else that of the click its token names, else that of
     * the click its device signals match (scored as a first launch is; nothing is consumed).
     */
    async campaign(
      caller: AppCaller,
      address: LinkAddress,
      client: ClientInfo,
      hints: CampaignClickHints = {},
    ): Promise<{
      link: TargetLink;
      campaign: Campaign;
      customerId: string | null;
      customerIdSource: CustomerIdSource | null;
    }> {
      const link = await linkByAddress(caller, 'campaign', address, client);
      if (link.linkType !== 'campaign') throw new Error('unreachable');
      const campaign = link.campaign;
      // A matched click without a cid answers null, as no match does.
      const found = (customerId: string | null | undefined, source: CustomerIdSource) => ({
        link,
        campaign,
        customerId: customerId || null,
        customerIdSource: customerId ? source : null,
      });
      if (hints.cid) return found(hints.cid, 'query');
      const token = tokenIn(hints.token);
      if (token) {
        const stored = await tokens.get(token);
        const ofThisCampaign =
          stored &&
          stored.organizationId === caller.organization.id &&
          stored.linkType === 'campaign' &&
          stored.linkId === campaign.id;
        if (ofThisCampaign) return found(stored.cid, 'token');
      }
      if (hints.device) {
        const click = await matcher.campaignClickOf(
          { ...hints.device, appId: caller.app.id, platform: caller.app.platform },
          campaign.id,
        );
        if (click) return found(click.cid, 'fingerprint');
      }
      return { link, campaign, customerId: null, customerIdSource: null };
    },
  };
}

export type DeepLinkResolveService = ReturnType<typeof createDeepLinkResolveService>;
