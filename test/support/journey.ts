// Helpers of the user-journey tests: an organization with a registered app, and calls to
// /api/v1/cross-platform as a browser (X-App-ID only) or as a mobile app (X-App-ID + key). A
// browser's session calls go where browsers make them: the web SDK API (/api/v1/sdk/web/journey).
import type { LightMyRequestResponse } from 'fastify';
import type { TestService } from './service.js';

export interface JourneyApp {
  org: { id: number; apiKey: string };
  appId: number;
  appKey: string;
}

/** An organization on `plan`, with the user-journey add-on granted when asked, and an app. */
export async function journeyOrg(svc: TestService, name: string, plan = 'PRO', addOn = true): Promise<JourneyApp> {
  const org = await svc.createOrganization(name, plan);
  if (addOn) {
    const res = await svc.admin('PUT', `/organizations/${org.id}/add-ons`, { userJourney: true });
    if (res.statusCode !== 200) throw new Error(`add-on not granted: ${res.statusCode} ${res.body}`);
  }
  const app = await svc.createApp(org, { platform: 'IOS', appName: `${name} app`, bundleId: 'com.example.journey' });
  return { org, appId: app.id, appKey: app.apiKey };
}

export interface CallOptions {
  /** Send the mobile key too (a mobile app); default: browser (X-App-ID only). */
  mobile?: boolean;
  /** A browser's session call to /api/v1/cross-platform itself (refused: the key is required there). */
  crossPlatform?: boolean;
  headers?: Record<string, string>;
}

export function journeyClient(svc: TestService, app: JourneyApp) {
  return (
    method: 'GET' | 'POST' | 'OPTIONS',
    url: string,
    body?: unknown,
    options: CallOptions = {},
  ): Promise<LightMyRequestResponse> =>
    svc.inject({
      method,
      url: `${!options.mobile && !options.crossPlatform && url.startsWith('/session') ? '/api/v1/sdk/web/journey' : '/api/v1/cross-platform'}${url}`,
      headers: {
        'x-app-id': String(app.appId),
        ...(options.mobile ? { 'x-mobile-app-api-key': app.appKey } : {}),
        ...options.headers,
      },
      ...(body === undefined ? {} : { payload: body as object }),
    });
}
