// The SDK APIs' request limits: a caller that proved the app key (mobile SDK) spends the app's own
// budget (SDK_RATE_LIMIT_PER_SECOND); a caller with the public app id alone (browser, web SDK)
// spends a budget of its client address for that app (SDK_KEYLESS_RATE_LIMIT_PER_SECOND, burst
// SDK_KEYLESS_RATE_LIMIT_BURST), so a flood with the public app id starves neither the app's mobile
// SDK nor the app's other visitors. Past a budget: 429 RATE_LIMITED with Retry-After.
import { beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import {
  BASE,
  UA,
  createApps,
  createDeepLink,
  mobile,
  tapToLanding,
  type Apps,
  type Org,
} from './support/deep-links.js';
import { expectError } from './support/error-body.js';
import { serviceForFile } from './support/service.js';

const LIMIT = 10;
const KEYLESS_BURST = 3;
let org: Org;

const svc = serviceForFile({
  PUBLIC_BASE_URL: BASE,
  SDK_RATE_LIMIT_PER_SECOND: String(LIMIT),
  SDK_KEYLESS_RATE_LIMIT_PER_SECOND: '1',
  SDK_KEYLESS_RATE_LIMIT_BURST: String(KEYLESS_BURST),
});

beforeAll(async () => {
  org = await svc.createOrganization('Busy');
});

/** identify as a browser: the public app id only, from a client address. */
function browserIdentify(apps: Apps, ip: string, user = 'visitor') {
  return svc.inject({
    method: 'POST',
    url: '/api/v1/cross-platform/identify',
    headers: { 'x-app-id': String(apps.ios.id) },
    remoteAddress: ip,
    payload: { externalUserId: user },
  });
}

const funnel = (apps: Apps, i: number) =>
  mobile(svc, apps.ios, 'POST', '/deeplink/funnel/track', { sessionId: `s${i}`, stage: 'CLICKED' });

describe(`SDK rate limits (${backend})`, () => {
  it("answers a keyed caller 429 with Retry-After past its app's budget, and keeps serving other apps", async () => {
    const apps = await createApps(svc, org, 'Keyed');
    const others = await createApps(svc, org, 'Other');
    // All at once: one after the other, a loaded machine can be slow enough for the refill to keep up.
    const answers = await Promise.all(Array.from({ length: 3 * LIMIT }, (_, i) => funnel(apps, i)));
    // A full bucket serves a burst of LIMIT calls; the calls after it outrun the refill.
    expect(answers.filter((a) => a.statusCode === 200).length).toBeGreaterThanOrEqual(LIMIT);
    expect(answers.every((a) => a.statusCode === 200 || a.statusCode === 429)).toBe(true);
    const refused = answers.find((a) => a.statusCode === 429);
    expect(refused, 'no 429 past the budget').toBeDefined();
    expectError(refused!, 429, { code: 'RATE_LIMITED' });
    expect(refused!.headers['retry-after']).toBe('1');
    expect((await funnel(others, 0)).statusCode).toBe(200);
  });

  it('keeps valid mobile calls working while one address floods the app with its public id', async () => {
    const apps = await createApps(svc, org, 'Flooded');
    const flood = [];
    const mobileAnswers = [];
    // Ten keyless calls before each mobile call: on a shared budget, every mobile call is refused.
    for (let round = 0; round < 5; round++) {
      for (let i = 0; i < LIMIT; i++) flood.push(await browserIdentify(apps, '203.0.113.7'));
      mobileAnswers.push(await funnel(apps, round));
    }
    expect(mobileAnswers.map((a) => a.statusCode)).toEqual(Array(5).fill(200));
    const refused = flood.filter((a) => a.statusCode === 429);
    expect(refused.length).toBeGreaterThan(0);
    expectError(refused[0]!, 429, { code: 'RATE_LIMITED' });
    expect(refused[0]!.headers['retry-after']).toBe('1');
    expect(refused[0]!.headers['access-control-allow-origin']).toBe('*');
  });

  it('keeps serving keyless callers from other addresses while one address floods', async () => {
    const apps = await createApps(svc, org, 'Shared');
    const others = [];
    const flood = [];
    for (let round = 0; round < KEYLESS_BURST; round++) {
      for (let i = 0; i < LIMIT; i++) flood.push(await browserIdentify(apps, '203.0.113.66'));
      others.push(await browserIdentify(apps, '198.51.100.20', 'another-visitor'));
    }
    // created by the first call, updated by the others
    expect(others.map((a) => a.statusCode)).toEqual([201, ...Array(KEYLESS_BURST - 1).fill(200)]);
    // The flooding address itself is refused past its burst (checked on its own calls: a call
    // after the others could find a token refilled in the meantime).
    const refused = flood.filter((a) => a.statusCode === 429);
    expect(refused.length).toBeGreaterThan(0);
    expectError(refused[0]!, 429, { code: 'RATE_LIMITED' });
  });

  it("counts the web SDK's calls about a token against the caller's address for the token's app, not the mobile budget", async () => {
    const apps = await createApps(svc, org, 'Web');
    const link = await createDeepLink(svc, org, apps);
    const page = await tapToLanding(svc, `/${link.shortCode}`, { ua: UA.pixel });
    const answers = [];
    for (let i = 0; i < 4 * KEYLESS_BURST; i++) {
      answers.push(
        await svc.inject({
          method: 'POST',
          url: '/api/v1/sdk/web/deeplink/update-fingerprint',
          remoteAddress: '192.0.2.44',
          headers: { origin: BASE },
          payload: { token: page.token, resolution: '412x915' },
        }),
      );
    }
    expect(answers.slice(0, KEYLESS_BURST).map((a) => a.statusCode)).toEqual(Array(KEYLESS_BURST).fill(200));
    const refused = answers.find((a) => a.statusCode === 429);
    expect(refused, 'no 429 past the address budget').toBeDefined();
    expectError(refused!, 429, { code: 'RATE_LIMITED' });
    expect(refused!.headers['access-control-allow-origin']).toBe('*');
    // The app's mobile calls about the same token have their own budget.
    expect((await mobile(svc, apps.android, 'GET', `/deeplink/match?token=${page.token}`)).statusCode).toBe(200);
  });
});
