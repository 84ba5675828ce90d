// OpenID Connect sign-in end to end in Chromium: the service listening on loopback (its public
// address), a real provider in this process (oidc-provider) with its login form, and a member who
// chooses "Sign in with …" on the console's sign-in page, signs in at the provider, lands in the
// console and signs out.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { expectAccessible, startListeningService } from './support/console-browser.js';
import { startOidcProvider, type TestOidcProvider } from './support/oidc-provider.js';
import { isolate, type Isolation, type TestService } from './support/service.js';

let op: TestOidcProvider;
let isolation: Isolation;
let svc: TestService;
let base: string;
let browser: Browser | undefined;

beforeAll(async () => {
  op = await startOidcProvider();
  isolation = await isolate();
  ({ svc, base } = await startListeningService(isolation, {
    OIDC_ISSUER: op.issuer,
    OIDC_CLIENT_ID: op.clientId,
    OIDC_CLIENT_SECRET: op.clientSecret,
    OIDC_PROVIDER_NAME: 'Test SSO',
  }));
  op.register(`${base}/console/auth/oidc/callback`);
});

afterAll(async () => {
  await browser?.close();
  await svc?.close();
  await isolation?.dispose();
  await op?.close();
});

it('a member signs in through the provider, lands in the console and signs out', { timeout: 60_000 }, async () => {
  const org = await svc.createOrganization('Acme');
  const added = await svc.admin('POST', `/organizations/${org.id}/members`, {
    email: 'kim@example.com',
    role: 'admin',
  });
  expect(added.statusCode, added.body).toBe(201);

  browser = await launchChromium();
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(`${base}/console/sign-in`);
  const button = page.getByRole('link', { name: 'Sign in with Test SSO' });
  expect(await button.isVisible()).toBe(true);
  await expectAccessible(page, 'sign-in page with the provider');

  // At the provider: its own login form.
  await Promise.all([page.waitForURL((url) => url.href.startsWith(op.issuer)), button.click()]);
  await page.getByLabel('Login').fill('kim@example.com');
  await Promise.all([
    page.waitForURL((url) => url.href.startsWith(`${base}/console/`)),
    page.getByRole('button', { name: 'Continue' }).click(),
  ]);

  // Back in the console, signed in.
  expect(new URL(page.url()).pathname).toBe('/console/');
  const session = await page.request.get(`${base}/console/api/session`);
  expect(session.status(), await session.text()).toBe(200);
  expect(((await session.json()) as { user: { email: string } }).user.email).toBe('kim@example.com');
  const cookie = (await context.cookies(base)).find((c) => c.name === 'sp_session');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
  // The pending sign-in's cookie is gone.
  expect((await context.cookies(base)).some((c) => c.name === 'sp_oidc')).toBe(false);
  const signOut = page.getByRole('button', { name: 'Sign out', exact: true });
  await signOut.waitFor();

  // Signing out ends the session: the console sends the browser to sign in.
  await Promise.all([page.waitForURL((url) => url.pathname === '/console/sign-in'), signOut.click()]);
  expect((await page.request.get(`${base}/console/api/session`)).status()).toBe(401);
  await context.close();
});
