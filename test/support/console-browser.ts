// The console as a person reaches it in the browser tests: the real service listening on a
// loopback port (PUBLIC_BASE_URL is that address, so cookies and origins work as in development),
// a member signed in through the operator's login link, and axe's verdict on a screen.
import net, { type AddressInfo } from 'node:net';
import { AxeBuilder } from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { launchChromium } from './chromium.js';
import { isolate, startService, type Isolation, type TestService } from './service.js';

/** A port the OS has just handed out and taken back, for the service to listen on. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** The service listening on 127.0.0.1 at its public address. */
export async function startListeningService(
  isolation: Isolation,
  env: Record<string, string> = {},
): Promise<{ svc: TestService; base: string }> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const svc = await startService(isolation, { PORT: String(port), HOST: '127.0.0.1', PUBLIC_BASE_URL: base, ...env });
  await svc.container.listen();
  expect((svc.container.app.server.address() as AddressInfo).port).toBe(port);
  return { svc, base };
}

/** A browser context signed in as the member, on the console's home. */
export async function signInAs(
  browser: Browser,
  svc: TestService,
  base: string,
  email: string,
  options: {
    locale?: string;
    viewport?: { width: number; height: number };
    timezoneId?: string;
    colorScheme?: 'light' | 'dark';
  } = {},
): Promise<{ ctx: BrowserContext; page: Page }> {
  const ctx = await browser.newContext({
    locale: options.locale ?? 'ko-KR',
    ...(options.viewport ? { viewport: options.viewport } : {}),
    ...(options.timezoneId ? { timezoneId: options.timezoneId } : {}),
    ...(options.colorScheme ? { colorScheme: options.colorScheme } : {}),
    acceptDownloads: true,
  });
  const page = await ctx.newPage();
  const link = new URL((await svc.admin('POST', '/login-links', { email })).json().url as string);
  await page.goto(`${base}${link.pathname}${link.search}`);
  expect(new URL(page.url()).pathname).toBe('/console/');
  return { ctx, page };
}

/**
 * No serious or critical axe violation on the page as it stands, once its transitions have ended:
 * a dialog still fading in has text at part of its opacity, which axe measures as low contrast.
 */
export async function expectAccessible(page: Page, what: string): Promise<void> {
  // A function, not a string: the console's Content-Security-Policy forbids evaluating text.
  type AnimatedDocument = { getAnimations(): { playState: string }[] };
  await page.waitForFunction(
    () =>
      (globalThis as unknown as { document: AnimatedDocument }).document
        .getAnimations()
        .every((a) => a.playState !== 'running'),
    undefined,
    { timeout: 5_000 },
  );
  const { violations } = await new AxeBuilder({ page }).analyze();
  // Each node's own markup too: a violation seen once (on :root, say) must say what was there.
  const serious = violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')} ${n.html.slice(0, 300)}`).join(', ')})`,
    );
  expect(serious, what).toEqual([]);
}

/** What a browser test file works with: the listening service, its address, and Chromium. */
export interface BrowserFile {
  svc: TestService;
  base: string;
  browser: Browser;
}

/**
 * The set-up of a console browser test file: before its tests, a copy of the migrated stores, the
 * service listening on them and Chromium; after them, all closed. The returned object holds them
 * from the file's beforeAll on.
 */
export function consoleForFile(env: Record<string, string> = {}): BrowserFile {
  const file = {} as BrowserFile;
  let isolation: Isolation | undefined;
  beforeAll(async () => {
    isolation = await isolate();
    Object.assign(file, await startListeningService(isolation, env));
    file.browser = await launchChromium();
  });
  afterAll(async () => {
    await file.browser?.close();
    await file.svc?.close();
    await isolation?.dispose();
  });
  return file;
}
