// The redirect's deep-link branch: a phone whose platform has an app linked to the clicked link
// gets a token and the landing page instead of a 302. The token is written to PostgreSQL before
// the page is answered (the page's next calls need it), under a short deadline; when PostgreSQL
// is slow or down the click falls back to the plain mobile redirect, and after a failure the next
// clicks skip the attempt for a few seconds instead of each waiting out the deadline.
import type { FastifyRequest } from 'fastify';
import { clipboardValueOf, newClipboardCode } from '../../core/deeplinks/clipboard-code.js';
import { agentSignals, ipPrefix, withClientHints } from '../../core/deeplinks/device-signals.js';
import { normalizeIp } from '../../shared/ip.js';
import { inAppBrowserOf } from '../../core/deeplinks/in-app-browser.js';
import { appUrlFor, intentUrlFor, storeUrlFor } from '../../core/deeplinks/landing-addresses.js';
import type { DeepLinkServices } from '../../core/deeplinks/services.js';
import type { MobilePlatform } from '../../shared/user-agents.js';
import { randomBase62 } from '../../shared/ids.js';
import { webSdkPath } from '../../web-sdk/version.js';
import type { LandingPageInput } from './landing-page.js';
import type { CachedLink } from '../../core/redirect/link-resolver.js';
import { cleanLine } from '../schemas/text.js';

/** Longest a click waits for its token to be written. */
const TOKEN_WRITE_DEADLINE_MS = 800;
/** After a failed write, clicks go straight to the plain redirect for this long. */
const BACKOFF_MS = 5_000;

const newDeepLinkToken = () => randomBase62(24);

/** Everything of the landing page but the token, from the link, the app and the click. */
function landingInput(options: {
  link: CachedLink;
  platform: MobilePlatform;
  token: string;
  /** The click's clipboard code, when the app turned the clipboard match on (iOS). */
  clipboardCode: string | null;
  /** Where the click goes without the app: mobileTargetUrl, else the link's destination. */
  fallbackUrl: string;
  userAgent: string | undefined;
  publicBaseUrl: string;
}): LandingPageInput | undefined {
  const { link, platform, token } = options;
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
            browserFallbackUrl: storeUrl ?? options.fallbackUrl,
          })
        : null,
    // A universal link to the page's own domain never opens the app from Safari, and the platform
    // host would answer it with this page again: none until a second associated domain exists.
    universalLinkUrl: null,
    storeUrl,
    // Copied by the store button: without a store there is no install to carry it to.
    clipboardToken: options.clipboardCode && storeUrl ? clipboardValueOf(options.clipboardCode) : null,
    fallbackUrl: options.fallbackUrl,
    inAppBrowser: inAppBrowserOf(options.userAgent),
    goalType: link.goalType,
    apiBase: options.publicBaseUrl,
    sdkUrl: `${options.publicBaseUrl}${webSdkPath()}`,
  };
}

type Query = Record<string, string | string[] | undefined>;
const first = (query: Query, name: string) => {
  const v = query[name];
  // Cleaned, not refused: the click must land, and the token row must be storable (a NUL made
  // the write fail, which turned landing pages off for every link for a while).
  const value = cleanLine(((Array.isArray(v) ? v[0] : v) ?? '').slice(0, 100));
  return value || null;
};

export function createDeepLinkLanding(deps: { deepLinks: DeepLinkServices; publicBaseUrl: string }) {
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
     * could not be written in time (the caller redirects as it would without an app).
     */
    async prepare(
      request: FastifyRequest,
      link: CachedLink,
      platform: MobilePlatform,
      fallbackUrl: string,
    ): Promise<LandingPageInput | undefined> {
      const target = platform === 'IOS' ? link.ios : link.android;
      if (!target || Date.now() < skipUntil) return undefined;
      const token = newDeepLinkToken();
      const userAgent = request.headers['user-agent'] ?? '';
      const ip = normalizeIp(request.ip);
      // Chrome's reduced user agent hides an Android phone's model and version; the client hints
      // say them when the browser sends them (it does once the landing page asked, Accept-CH).
      const agent = withClientHints(agentSignals(userAgent), {
        model: request.headers['sec-ch-ua-model'],
        platformVersion: request.headers['sec-ch-ua-platform-version'],
      });
      const query = request.query as Query;
      const campaign = link.kind === 'campaign';
      // iOS only: Android carries the token through the Play Install Referrer.
      const clipboardCode = platform === 'IOS' && target.clipboardMatch ? newClipboardCode() : null;
      const write = deps.deepLinks.tokens.create({
        token,
        organizationId: link.organizationId,
        appId: target.appId,
        platform,
        linkType: link.kind,
        linkId: link.id,
        ip,
        ipPrefix: ipPrefix(ip),
        userAgent: userAgent.slice(0, 1000),
        os: agent.os,
        osVersion: agent.osVersion,
        deviceModel: agent.deviceModel,
        acceptLanguage: (request.headers['accept-language'] ?? '').slice(0, 200) || null,
        cid: campaign ? first(query, 'cid') : null,
        tracker: campaign ? first(query, 'tracker') : null,
        clipboardCode,
        ttlSeconds: target.tokenTtlSeconds,
      });
      let written: boolean;
      try {
        written = await withDeadline(write);
        if (!written)
          request.log.warn(
            { deadlineMs: TOKEN_WRITE_DEADLINE_MS },
            'deep-link token write too slow; plain mobile redirects for a while',
          );
      } catch (err) {
        request.log.warn({ err }, 'deep-link token not written; plain mobile redirects for a while');
        written = false;
      }
      if (!written) {
        // A write that finishes after the deadline only leaves an unused token behind.
        write.catch(() => {});
        skipUntil = Date.now() + BACKOFF_MS;
        return undefined;
      }
      deps.deepLinks.recorder.funnel(link.organizationId, {
        appId: target.appId,
        platform,
        sessionId: token,
        stage: 'CLICKED',
        linkType: link.kind,
        linkId: link.id,
        source: 'landing',
      });
      return landingInput({
        link,
        platform,
        token,
        clipboardCode,
        fallbackUrl,
        userAgent,
        publicBaseUrl: deps.publicBaseUrl,
      });
    },
  };
}
