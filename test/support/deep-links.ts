// Shared by the deep-link tests: phones' user agents, an organization's iOS and Android apps and
// links, a click as a phone makes it, the landing page read back, mobile SDK calls.
import { expect } from 'vitest';
import type { NewCampaign } from '../../src/core/links/campaigns.js';
import type { TestLinkInput, TestService } from './service.js';

export const PLATFORM_HOST = 'sgnp.example';
export const BASE = `https://${PLATFORM_HOST}`;

export const UA = {
  iPhone:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  pixel:
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  galaxy:
    'Mozilla/5.0 (Linux; Android 14; SM-S918N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
  desktop:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
  kakaoAndroid:
    'Mozilla/5.0 (Linux; Android 14; SM-S918N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Mobile Safari/537.36 KAKAOTALK 10.8.0',
} as const;

export interface Org {
  id: number;
  apiKey: string;
}

export interface AppRecord {
  id: number;
  apiKey: string;
  path: string;
  platform: 'IOS' | 'ANDROID';
  bundleId: string;
}

export interface Apps {
  ios: AppRecord;
  android: AppRecord;
}

let counter = 0;
export const unique = (prefix: string) => `${prefix}-${++counter}-${Math.random().toString(36).slice(2, 7)}`;

/** An iOS and an Android app of the organization (the core call of POST /mobile-apps). */
export async function createApps(svc: TestService, org: Org, label = 'Shop'): Promise<Apps> {
  const ios = await svc.createApp(org, {
    platform: 'IOS',
    appName: `${label} iOS`,
    bundleId: 'com.example.shop',
    teamId: 'ABCDE12345',
    scheme: 'shop://',
    storeUrl: 'https://apps.apple.com/app/id1234567890',
    appIconUrl: 'https://cdn.example/icon.png',
  });
  const android = await svc.createApp(org, {
    platform: 'ANDROID',
    appName: `${label} Android`,
    bundleId: 'com.example.shop',
    scheme: 'shop://',
    storeUrl: 'https://play.google.com/store/apps/details?id=com.example.shop&hl=ko',
  });
  return { ios, android };
}

/** A short URL (the core call of POST /urls). */
export const createUrl = (svc: TestService, org: Org, input: TestLinkInput) => svc.createLink(org, input);

/** A campaign, named uniquely unless named (the core call of POST /campaigns). */
export const createCampaign = (svc: TestService, org: Org, input: Omit<NewCampaign, 'name'> & { name?: string }) =>
  svc.createCampaign(org, { name: unique('Campaign'), ...input });

/** A deep link to product/42 on both platforms, with a mobile fallback. */
export async function createDeepLink(svc: TestService, org: Org, apps: Apps, extra: Partial<TestLinkInput> = {}) {
  return createUrl(svc, org, {
    url: 'https://shop.example/product/42',
    iosAppId: apps.ios.id,
    androidAppId: apps.android.id,
    iosDeepLinkPath: 'product/42',
    androidDeepLinkPath: 'product/42',
    mobileTargetUrl: 'https://m.shop.example/product/42',
    goalType: 'purchase',
    ...extra,
  });
}

export interface Tap {
  ua: string;
  ip?: string;
  language?: string;
}

/** A tap on a link, as the phone's browser sends it. */
export function tap(svc: TestService, path: string, t: Tap) {
  return svc.inject({
    method: 'GET',
    url: path,
    headers: { host: PLATFORM_HOST, 'user-agent': t.ua, 'accept-language': t.language ?? 'ko-KR,ko;q=0.9,en-US;q=0.8' },
    remoteAddress: t.ip ?? '203.0.113.10',
  });
}

export interface Landing {
  token: string;
  platform: 'IOS' | 'ANDROID';
  linkType: 'url' | 'campaign';
  appId: number;
  appName: string;
  appUrl: string | null;
  intentUrl: string | null;
  storeUrl: string | null;
  fallbackUrl: string;
  inAppBrowser: string | null;
  goalType: string | null;
  apiBase: string;
  sdkUrl: string;
}

/** The landing page's token (meta) and the addresses it embeds; fails unless it is one. */
function landingOf(res: { statusCode: number; headers: Record<string, unknown>; body: string }): Landing {
  expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  expect(String(res.headers['content-type'])).toMatch(/^text\/html/);
  const meta = /<meta name="signpost:deeplink-token" content="([^"]+)">/.exec(res.body);
  expect(meta, 'the deep-link token meta').not.toBeNull();
  const json = /<script type="application\/json" id="signpost-landing">(.*?)<\/script>/s.exec(res.body);
  expect(json, 'the embedded landing JSON').not.toBeNull();
  const landing = JSON.parse(json![1]!) as Landing;
  expect(landing.token).toBe(meta![1]);
  return landing;
}

/** A tap that must answer the landing page. */
export async function tapToLanding(svc: TestService, path: string, t: Tap): Promise<Landing> {
  return landingOf(await tap(svc, path, t));
}

function mobileHeaders(app: AppRecord): Record<string, string> {
  return { 'x-app-id': String(app.id), 'x-mobile-app-api-key': app.apiKey };
}

export function mobile(
  svc: TestService,
  app: AppRecord | null,
  method: 'GET' | 'POST',
  url: string,
  body?: unknown,
  extra: { ip?: string; headers?: Record<string, string> } = {},
) {
  return svc.inject({
    method,
    url: `/api/v1/sdk/mobile${url}`,
    headers: { ...(app ? mobileHeaders(app) : {}), ...extra.headers },
    remoteAddress: extra.ip ?? '198.18.0.1',
    ...(body === undefined ? {} : { payload: body as object }),
  });
}

export function web(
  svc: TestService,
  method: 'GET' | 'POST' | 'OPTIONS',
  url: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return svc.inject({
    method,
    url: `/api/v1/sdk/web${url}`,
    headers: { origin: 'https://sgnp.example', ...headers },
    ...(body === undefined ? {} : typeof body === 'string' ? { payload: body } : { payload: body as object }),
  });
}

export const query = (params: Record<string, string | undefined>) =>
  new URLSearchParams(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined)).toString();
