// The deep-link SDK flows as core services, over in-memory stores: links by address (not found,
// another app's path, expired) each recorded with its reason, a funnel stage that belongs to the
// link of the deep-link token it is a session of, and the keyless budget a browser report spends.
import { describe, expect, it } from 'vitest';
import type { ResolutionData } from '../../src/ingest/deep-link-events.js';
import { createDeepLinkResolveService } from '../../src/core/deeplinks/resolve.js';
import type { DeepLinkRecorder } from '../../src/core/deeplinks/records.js';
import { createLinkTargets, type TargetLink } from '../../src/core/deeplinks/targets.js';
import { createDeepLinkTrackingService } from '../../src/core/deeplinks/tracking.service.js';
import { createWebSdkDataService } from '../../src/core/deeplinks/web-sdk.js';
import type { DeferredMatcher } from '../../src/core/deeplinks/deferred-match.js';
import type { DeepLinkToken } from '../../src/oltp/deep-link-tokens.repo.js';
import type { ShortUrl } from '../../src/oltp/short-urls.repo.js';
import type { MobileApp } from '../../src/oltp/mobile-apps.repo.js';

const ORG = 7;
const caller = { app: { id: 3, platform: 'IOS' as const }, organization: { id: ORG } };
const client = { ip: '203.0.113.7', userAgent: 'test-agent' };

function shortUrl(over: Partial<ShortUrl> = {}): ShortUrl {
  return {
    id: 11,
    organizationId: ORG,
    shortCode: 'abc',
    customDomainId: null,
    customDomainName: null,
    originalUrl: 'https://example.com/a',
    title: null,
    expiresAt: null,
    iosAppId: 3,
    androidAppId: null,
    iosDeepLinkPath: '/product/1',
    androidDeepLinkPath: null,
    mobileTargetUrl: null,
    goalType: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...over,
  } as ShortUrl;
}

function setup(url: ShortUrl | undefined, tokens: DeepLinkToken[] = []) {
  const resolutions: ResolutionData[] = [];
  const funnel: unknown[] = [];
  const recorder: DeepLinkRecorder = {
    funnel: (_org, data) => void funnel.push(data),
    resolution: (_org, data) => void resolutions.push(data),
    install: () => {},
  };
  const targets = createLinkTargets({
    shortUrls: { get: async (org, id) => (url && org === url.organizationId && id === url.id ? url : undefined) },
    campaigns: { get: async () => undefined },
    mobileApps: { getMany: async () => new Map([[3, { id: 3, path: 'shop' } as MobileApp]]) },
    records: {
      findLinkByCode: async (org, code, linkType) =>
        url && org === url.organizationId && code === url.shortCode && linkType === 'url'
          ? { linkType, id: url.id }
          : undefined,
    },
  });
  const tokenStore = {
    get: async (t: string) => tokens.find((x) => x.token === t),
    open: async () => undefined,
    updateFingerprint: async (t: string) => tokens.find((x) => x.token === t),
    markStoreVisited: async () => undefined,
  };
  const marks = new Set<string>();
  const records = {
    markFunnelStage: async (org: number, session: string, stage: string, at: string) =>
      !marks.has(`${org} ${session} ${stage} ${at}`) && marks.add(`${org} ${session} ${stage} ${at}`) !== undefined,
    nextClickId: async () => 1,
    upsertAssociation: async () => ({ created: true, createdAt: new Date(), updatedAt: new Date() }),
    addDebugSchemeReport: async () => 1,
    listDebugSchemeReports: async () => [],
  };
  const resolve = createDeepLinkResolveService({
    tokens: tokenStore,
    matcher: {} as DeferredMatcher,
    recorder,
    targets,
  });
  const tracking = createDeepLinkTrackingService({
    tokens: tokenStore,
    records,
    recorder,
    targets,
    events: { record: () => {} } as never,
  });
  const limited: [number | string, string][] = [];
  const webSdk = createWebSdkDataService({
    tokens: tokenStore,
    records,
    recorder,
    targets,
    keylessLimit: (app, ip) => void limited.push([app, ip]),
    mobileApps: { authenticate: async () => undefined },
    clickTokens: { verify: () => undefined },
  });
  return { resolve, tracking, webSdk, resolutions, funnel, limited };
}

const token = (over: Partial<DeepLinkToken> = {}) =>
  ({
    token: 'T'.repeat(24),
    organizationId: ORG,
    appId: 3,
    platform: 'IOS',
    linkType: 'url',
    linkId: 11,
    expiresAt: new Date(Date.now() + 60_000),
    ...over,
  }) as DeepLinkToken;

describe('link by address', () => {
  it('answers the short URL and records a direct match', async () => {
    const s = setup(shortUrl());
    const { url, link } = await s.resolve.shortUrl(caller, { code: 'abc', appPath: 'shop' }, client);
    expect(url.id).toBe(11);
    expect((link as TargetLink).linkType).toBe('url');
    expect(s.resolutions).toMatchObject([
      { method: 'shorturl', matched: true, matchType: 'direct', linkType: 'url', linkId: 11 },
    ]);
  });

  it('refuses an unknown code and another app path as not found, an expired link as gone, each recorded with why', async () => {
    const s = setup(shortUrl({ expiresAt: new Date(Date.now() - 1000) }));
    await expect(s.resolve.shortUrl(caller, { code: 'nope' }, client)).rejects.toMatchObject({
      kind: 'not_found',
      code: 'SHORT_URL_NOT_FOUND',
      message: 'no short URL nope in your organization',
    });
    await expect(s.resolve.shortUrl(caller, { code: 'abc', appPath: 'other' }, client)).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(s.resolve.shortUrl(caller, { code: 'abc' }, client)).rejects.toMatchObject({
      kind: 'gone',
      code: 'LINK_EXPIRED',
      message: 'the short URL abc has expired',
    });
    expect(s.resolutions.map((r) => r.failureReason)).toEqual(['unknown_code', 'unknown_code', 'link_expired']);
  });
});

describe('funnel stages', () => {
  it("puts a session that is a deep-link token of the organization on the token's link, and records a repeat once", async () => {
    const s = setup(shortUrl(), [token()]);
    const input = { sessionId: 'T'.repeat(24), stage: 'APP_OPENED' as const, goalValue: null };
    expect(await s.tracking.trackFunnelStage(caller, input)).toMatchObject({
      recorded: true,
      link: { linkType: 'url', id: 11 },
    });
    expect(await s.tracking.trackFunnelStage(caller, input)).toMatchObject({ recorded: false });
    expect(s.funnel).toHaveLength(1);
  });

  it("ignores another organization's token and refuses a link that does not exist", async () => {
    const s = setup(shortUrl(), [token({ organizationId: ORG + 1 })]);
    expect(
      await s.tracking.trackFunnelStage(caller, { sessionId: 'T'.repeat(24), stage: 'APP_OPENED', goalValue: null }),
    ).toMatchObject({ link: null });
    await expect(
      s.tracking.trackFunnelStage(caller, {
        sessionId: 's',
        stage: 'APP_OPENED',
        goalValue: null,
        link: { linkType: 'url', id: 99 },
      }),
    ).rejects.toMatchObject({ code: 'SHORT_URL_NOT_FOUND', message: 'short URL 99 does not exist' });
  });
});

describe('web SDK reports', () => {
  it("spends the keyless budget of the app named before the look-up, else of the token's app", async () => {
    const s = setup(shortUrl(), [token({ appId: 5 })]);
    await s.webSdk.updateFingerprint({ token: 'T'.repeat(24), appId: 5 }, '198.51.100.1');
    await s.webSdk.updateFingerprint({ token: 'T'.repeat(24) }, '198.51.100.2');
    await expect(s.webSdk.updateFingerprint({ token: 'unknown' }, '198.51.100.3')).rejects.toMatchObject({
      code: 'DEEP_LINK_TOKEN_NOT_FOUND',
    });
    // A page naming another app: that app's budget is spent, then the token is as unknown (update-fingerprint rule).
    await expect(s.webSdk.updateFingerprint({ token: 'T'.repeat(24), appId: 9 }, '198.51.100.4')).rejects.toMatchObject(
      { code: 'DEEP_LINK_TOKEN_NOT_FOUND' },
    );
    expect(s.limited).toEqual([
      [5, '198.51.100.1'],
      [5, '198.51.100.2'],
      [9, '198.51.100.4'],
    ]);
  });
});
