// The per-app limit of the SDK APIs (SDK_RATE_LIMIT_PER_SECOND) on the deep-link routes: mobile
// calls and the web SDK's calls about the app's tokens share one budget per app and second; past
// it, 429 with Retry-After; other apps are not affected.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { BASE, UA, createApps, createDeepLink, mobile, tapToLanding, web, type Apps, type Org } from './support/deep-links.js';
import { expectError } from './support/error-body.js';
import { isolate, startService, type Isolation, type TestService } from './support/service.js';

const LIMIT = 5;
let isolation: Isolation;
let svc: TestService;
let org: Org;
let apps: Apps;
let others: Apps;

beforeAll(async () => {
  isolation = await isolate();
  svc = await startService(isolation, { PUBLIC_BASE_URL: BASE, SDK_RATE_LIMIT_PER_SECOND: String(LIMIT) });
  org = await svc.createOrganization('Busy');
  apps = await createApps(svc, org);
  others = await createApps(svc, org, 'Other');
});

afterAll(async () => {
  await svc?.close();
  await isolation?.dispose();
});

/** Waits for the start of a second, so a burst falls into one window. */
async function atSecondStart() {
  await new Promise((r) => setTimeout(r, 1000 - (Date.now() % 1000) + 5));
}

describe(`SDK rate limit (${backend})`, () => {
  it('answers 429 with Retry-After past the limit of one app, and keeps serving the others', async () => {
    await atSecondStart();
    const answers = [];
    for (let i = 0; i < LIMIT + 2; i++) answers.push(await mobile(svc, apps.ios, 'POST', '/deeplink/funnel/track', { sessionId: `s${i}`, stage: 'CLICKED' }));
    expect(answers.slice(0, LIMIT).map((a) => a.statusCode)).toEqual(Array(LIMIT).fill(200));
    const refused = answers[LIMIT]!;
    expectError(refused, 429, { code: 'RATE_LIMITED' });
    expect(refused.headers['retry-after']).toBe('1');
    expect((await mobile(svc, others.ios, 'POST', '/deeplink/funnel/track', { sessionId: 'x', stage: 'CLICKED' })).statusCode).toBe(200);
  });

  it('counts the web SDK\'s calls about a token against the token\'s app', async () => {
    const link = await createDeepLink(svc, org, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.pixel });
    await atSecondStart();
    const answers = [];
    for (let i = 0; i < LIMIT + 1; i++) answers.push(await web(svc, 'POST', '/deeplink/update-fingerprint', { token: page.token, resolution: '412x915' }));
    expect(answers.map((a) => a.statusCode)).toEqual([...Array(LIMIT).fill(200), 429]);
    expect(answers[LIMIT]!.headers['access-control-allow-origin']).toBe('*');
    // The same second's budget is gone for the app's mobile calls as well.
    expectError(await mobile(svc, apps.android, 'GET', `/deeplink/match?token=${page.token}`), 429);
  });
});
