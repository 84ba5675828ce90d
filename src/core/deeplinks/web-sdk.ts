// What the landing page and the web SDK report about a deep-link token (device fingerprint, store
// visit, Android intent debug data) and the token's link for trackGoal. A browser holds no secret,
// so each call is counted against the keyless budget of the caller's address for the token's app
// (or the app it names), never the app's own.
import { type ClickTokens, isClickTokenShaped } from '../clicks/click-token.js';
import type { DeepLinkRecordsRepo, DebugSchemeReport } from '../../oltp/deep-link-records.repo.js';
import type { DeepLinkToken, DeepLinkTokensRepo } from '../../oltp/deep-link-tokens.repo.js';
import type { MobileAppsRepo } from '../../oltp/mobile-apps.repo.js';
import {
  agentSignals,
  normalizeLanguage,
  normalizeResolution,
  withClientHints,
  type ClientHints,
} from './device-signals.js';
import { tokenNotFound } from './not-found.js';
import type { DeepLinkRecorder } from './records.js';
import type { LinkTargets, TargetLink } from './targets.js';

/** Counts one call against the keyless budget of an app (or a shared key) and an address; throws when spent. */
export type KeylessLimit = (app: number | string, clientAddress: string) => void;

export interface FingerprintReport {
  token: string;
  /** The app the page names; the budget is then that app's, checked before the token is looked up. */
  appId?: number | undefined;
  resolution?: string | undefined;
  timeZone?: string | undefined;
  language?: string | undefined;
  pixelRatio?: number | undefined;
  /** navigator.userAgent: fills the OS version and device model the click's user agent lacked. */
  userAgent?: string | undefined;
  /** Chromium's client hints (the page's getHighEntropyValues, else the request's headers): the Android model and version a reduced user agent hides. */
  hints?: ClientHints | undefined;
}

export interface DebugSchemeInput {
  appUrl?: string | undefined;
  schemeEnd?: string | undefined;
  pathPart?: string | undefined;
  androidPackage?: string | undefined;
  appScheme?: string | undefined;
  intentUrl?: string | undefined;
  token?: string | undefined;
  appId?: number | undefined;
}

export function createWebSdkDataService(deps: {
  tokens: Pick<DeepLinkTokensRepo, 'get' | 'updateFingerprint' | 'markStoreVisited'>;
  records: Pick<DeepLinkRecordsRepo, 'addDebugSchemeReport' | 'listDebugSchemeReports'>;
  recorder: Pick<DeepLinkRecorder, 'funnel'>;
  mobileApps: Pick<MobileAppsRepo, 'authenticate'>;
  targets: LinkTargets;
  keylessLimit: KeylessLimit;
  clickTokens: Pick<ClickTokens, 'verify'>;
}) {
  const { tokens, records, recorder, keylessLimit } = deps;

  /** A live token, counted against the caller's address's keyless budget for the token's app (or the app named). */
  async function liveToken(token: string, appId: number | undefined, clientIp: string): Promise<DeepLinkToken> {
    if (appId !== undefined) keylessLimit(appId, clientIp);
    const found = await tokens.get(token);
    if (!found || found.expiresAt.getTime() <= Date.now()) throw tokenNotFound();
    if (appId === undefined) keylessLimit(found.appId, clientIp);
    return found;
  }

  return {
    /** Attaches the landing page's device fingerprint to a token. */
    async updateFingerprint(report: FingerprintReport, clientIp: string): Promise<void> {
      const found = await liveToken(report.token, report.appId, clientIp);
      // A page naming another app than the token's has no business with it: as unknown as any token.
      if (report.appId !== undefined && report.appId !== found.appId) throw tokenNotFound();
      // The page's own user agent is what the browser tells scripts, which can say more than the
      // request header did (Chrome's reduced `Android 10; K` there). It only fills what the click
      // lacked, and only for the same OS: a page claiming another OS does not rewrite the click.
      // Chromium's client hints complete it on Android (the model and version `Android 10; K` hides).
      const agent = withClientHints(agentSignals(report.userAgent), report.hints ?? {});
      const sameDevice = agent.os !== null && (found.os === null || found.os === agent.os);
      const updated = await tokens.updateFingerprint(report.token, {
        resolution: normalizeResolution(report.resolution),
        timeZone: report.timeZone?.trim() || null,
        language: normalizeLanguage(report.language),
        pixelRatio: report.pixelRatio ?? null,
        agent: sameDevice ? agent : null,
      });
      if (!updated) throw tokenNotFound();
    },

    /** Records that the visitor is sent to the store; `first` is false when it was recorded before. */
    async trackStoreVisit(token: string, clientIp: string): Promise<{ first: boolean }> {
      await liveToken(token, undefined, clientIp);
      const visit = await tokens.markStoreVisited(token);
      if (!visit) throw tokenNotFound();
      if (visit.first) {
        const t = visit.token;
        recorder.funnel(t.organizationId, {
          appId: t.appId,
          platform: t.platform,
          sessionId: t.token,
          stage: 'STORE_VISITED',
          linkType: t.linkType,
          linkId: t.linkId,
          source: 'landing',
        });
      }
      return { first: visit.first };
    },

    /** Stores an Android intent debug report, under the token's app or the app named when known. */
    async addDebugSchemeReport(
      input: DebugSchemeInput,
      client: { ip: string; userAgent?: string | undefined },
    ): Promise<number> {
      const token = input.token ? await tokens.get(input.token) : undefined;
      let appId = token?.appId ?? null;
      let organizationId = token?.organizationId ?? null;
      if (appId === null && input.appId !== undefined) {
        const named = await deps.mobileApps.authenticate(input.appId, null);
        if (named) [appId, organizationId] = [named.id, named.organizationId];
      }
      // Reports of no known app share one budget per address.
      keylessLimit(appId ?? 'debug-scheme', client.ip);
      return records.addDebugSchemeReport({
        organizationId,
        appId,
        token: token?.token ?? null,
        appUrl: input.appUrl ?? null,
        schemeEnd: input.schemeEnd ?? null,
        pathPart: input.pathPart ?? null,
        androidPackage: input.androidPackage ?? null,
        appScheme: input.appScheme ?? null,
        intentUrl: input.intentUrl ?? null,
        userAgent: client.userAgent?.slice(0, 1000) ?? null,
      });
    },

    /** The operator's view of the debug reports, newest first. */
    debugSchemeReports(filter: { appId?: number | undefined; limit: number }): Promise<DebugSchemeReport[]> {
      return records.listDebugSchemeReports(filter);
    },

    /**
     * The link of a live token of the organization (the token is not consumed), or of a click id
     * a link with conversion tracking gave a web click: verified by its signature, no look-up of
     * the id; one that does not verify, or names another organization, is as unknown as any.
     * `platform` is the phone's for a deep-link token, null for a web click.
     */
    async linkOfToken(organizationId: number, token: string): Promise<LinkOfToken> {
      if (isClickTokenShaped(token)) {
        const claims = deps.clickTokens.verify(token);
        if (!claims || claims.organizationId !== organizationId) throw tokenNotFound();
        const link = await deps.targets.load(organizationId, { linkType: claims.linkType, id: claims.linkId });
        if (!link) throw tokenNotFound();
        return { token, linkType: claims.linkType, platform: null, link };
      }
      const t = await tokens.get(token);
      if (!t || t.organizationId !== organizationId || t.expiresAt.getTime() <= Date.now()) throw tokenNotFound();
      const link = await deps.targets.load(t.organizationId, { linkType: t.linkType, id: t.linkId });
      if (!link) throw tokenNotFound();
      return { token: t.token, linkType: t.linkType, platform: t.platform, link };
    },
  };
}

export type WebSdkDataService = ReturnType<typeof createWebSdkDataService>;

/** What the web SDK's resolve answers from: the token's link, and the phone platform it was made for (null: a web click). */
export interface LinkOfToken {
  token: string;
  linkType: 'url' | 'campaign';
  platform: 'IOS' | 'ANDROID' | null;
  link: TargetLink;
}
