// The redirect's deep-link branch: a phone whose platform has an app linked to the clicked link
// gets a token and the landing page instead of a 302. The token is written to PostgreSQL before
// the page is answered (the page's next calls need it), under a short deadline; when PostgreSQL
// is slow or down the click falls back to the plain mobile redirect, and after a failure the next
// clicks skip the attempt for a few seconds instead of each waiting out the deadline. A written
// token is the funnel's CLICKED stage.
import type { DeepLinkTokensRepo } from '../../oltp/deep-link-tokens.repo.js';
import { randomBase62 } from '../../shared/ids.js';
import { normalizeIp } from '../../shared/ip.js';
import type { Logger } from '../../shared/logger.js';
import type { MobilePlatform } from '../../shared/user-agents.js';
import type { CachedLink } from '../redirect/link-resolver.js';
import { clipboardValueOf, newClipboardCode } from './clipboard-code.js';
import { agentSignals, type ClientHints, ipPrefix, withClientHints } from './device-signals.js';
import { type InAppBrowser, inAppBrowserOf } from './in-app-browser.js';
import { appUrlFor, intentUrlFor, storeUrlFor } from './landing-addresses.js';
import type { DeepLinkRecorder } from './records.js';

/** Longest a click waits for its token to be written. */
const TOKEN_WRITE_DEADLINE_MS = 800;

export const newDeepLinkToken = () => randomBase62(24);

/** A phone's click on a link with an app for its platform, as the redirect read it. */
export interface LandingClick {
  /** The click's token (newDeepLinkToken), made before the click is recorded so that its row carries it. */
  token: string;
  link: CachedLink;
  platform: MobilePlatform;
  /** Where the click goes without the app: mobileTargetUrl, else the link's destination. */
  fallbackUrl: string;
  ip: string;
  userAgent: string;
  acceptLanguage: string | undefined;
  /** Chromium's client hints: they say an Android phone's model and version its reduced user agent hides. */
  clientHints: ClientHints;
  /** A campaign's click parameters, cleaned; null when absent (and for short URLs). */
  cid: string | null;
  tracker: string | null;
}

/** What the landing page shows and hands the web SDK: every address decided here, for this click's token. */
export interface DeepLinkLanding {
  token: string;
  platform: 'IOS' | 'ANDROID';
  linkType: 'url' | 'campaign';
  appId: number;
  appName: string;
  appIconUrl: string | null;
  /** The link's title (or share title), shown under the app name. */
  title: string | null;
  /** `{scheme}{deepLinkPath}` with `signpost_token` added; null when the app has no scheme. */
  appUrl: string | null;
  /** Android only: `intent://…#Intent;scheme=…;package=…;S.browser_fallback_url=…;end`. */
  intentUrl: string | null;
  /** iOS universal link on an associated domain, when there is one. */
  universalLinkUrl: string | null;
  /** The store page; Android's carries `referrer=signpost_token%3DTOKEN`. */
  storeUrl: string | null;
  /**
   * iOS clipboard match (the app opted in): the value the store button copies before it goes to
   * the store, which the app reads once at first launch; null otherwise.
   */
  clipboardToken?: string | null;
  /** mobileTargetUrl, else originalUrl: where the visitor goes when there is no store to go to. */
  fallbackUrl: string;
  /** The in-app browser the visitor is in, when it is one the page escapes from. */
  inAppBrowser: InAppBrowser | null;
  goalType: string | null;
}

/** Everything of the landing page but the token, from the link, the app and the click. */
function landingOf(click: LandingClick, token: string, clipboardCode: string | null): DeepLinkLanding | undefined {
  const { link, platform, fallbackUrl } = click;
  const target = platform === 'IOS' ? link.ios : link.android;
  if (!target) return undefined;
  const storeUrl = storeUrlFor(target.storeUrl, platform, token);
  return {
    token,
    platform,
    linkType: link.kind,
    appId: target.appId,
    appName: target.appName,
    appIconUrl: target.appIconUrl,
    title: link.ogTitle ?? link.title,
    appUrl: appUrlFor(target.scheme, target.deepLinkPath, token),
    intentUrl:
      platform === 'ANDROID'
        ? intentUrlFor({
            scheme: target.scheme,
            packageName: target.bundleId,
            deepLinkPath: target.deepLinkPath,
            token,
            browserFallbackUrl: storeUrl ?? fallbackUrl,
          })
        : null,
    // A universal link to the page's own domain never opens the app from Safari, and the platform
    // host would answer it with this page again: none until a second associated domain exists.
    universalLinkUrl: null,
    storeUrl,
    // Copied by the store button: without a store there is no install to carry it to.
    clipboardToken: clipboardCode && storeUrl ? clipboardValueOf(clipboardCode) : null,
    fallbackUrl,
    inAppBrowser: inAppBrowserOf(click.userAgent),
    goalType: link.goalType,
  };
}

export function createDeepLinkLandingService(deps: {
  tokens: DeepLinkTokensRepo;
  recorder: DeepLinkRecorder;
  /** After a failed write, clicks go straight to the plain redirect for this long. */
  backoffMs: number;
}) {
  let skipUntil = 0;

  function withDeadline(write: Promise<void>): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), TOKEN_WRITE_DEADLINE_MS);
    });
    return Promise.race([write.then(() => true), deadline]).finally(() => clearTimeout(timer));
  }

  return {
    /**
     * The landing page for a phone click, or undefined: no app for this platform, or the token
     * could not be written in time (the caller redirects as it would without an app). `log` is
     * the request's.
     */
    async prepare(click: LandingClick, log: Pick<Logger, 'warn'>): Promise<DeepLinkLanding | undefined> {
      const { link, platform } = click;
      const target = platform === 'IOS' ? link.ios : link.android;
      if (!target || Date.now() < skipUntil) return undefined;
      const { token } = click;
      const ip = normalizeIp(click.ip);
      const agent = withClientHints(agentSignals(click.userAgent), click.clientHints);
      // iOS only: Android carries the token through the Play Install Referrer.
      const clipboardCode = platform === 'IOS' && target.clipboardMatch ? newClipboardCode() : null;
      const write = deps.tokens.create({
        token,
        organizationId: link.organizationId,
        appId: target.appId,
        platform,
        linkType: link.kind,
        linkId: link.id,
        ip,
        ipPrefix: ipPrefix(ip),
        userAgent: click.userAgent.slice(0, 1000),
        os: agent.os,
        osVersion: agent.osVersion,
        deviceModel: agent.deviceModel,
        acceptLanguage: (click.acceptLanguage ?? '').slice(0, 200) || null,
        cid: click.cid,
        tracker: click.tracker,
        clipboardCode,
        ttlSeconds: target.tokenTtlSeconds,
      });
      let written: boolean;
      try {
        written = await withDeadline(write);
        if (!written)
          log.warn(
            { deadlineMs: TOKEN_WRITE_DEADLINE_MS },
            'deep-link token write too slow; plain mobile redirects for a while',
          );
      } catch (err) {
        log.warn({ err }, 'deep-link token not written; plain mobile redirects for a while');
        written = false;
      }
      if (!written) {
        // A write that finishes after the deadline only leaves an unused token behind.
        write.catch(() => {});
        skipUntil = Date.now() + deps.backoffMs;
        return undefined;
      }
      deps.recorder.funnel(link.organizationId, {
        appId: target.appId,
        platform,
        sessionId: token,
        stage: 'CLICKED',
        linkType: link.kind,
        linkId: link.id,
        source: 'landing',
      });
      return landingOf(click, token, clipboardCode);
    },
  };
}

export type DeepLinkLandingService = ReturnType<typeof createDeepLinkLandingService>;
