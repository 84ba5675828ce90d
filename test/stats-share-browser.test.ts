// The shared statistics page in Chromium, as a stranger opens it: a fresh context with no cookie,
// the link's heading, totals and tables found by role and name, the period links work, and the
// page runs under its Content-Security-Policy without a single violation.
import type { AddressInfo } from 'node:net';
import type { Browser, ConsoleMessage } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { recordClicks } from './support/recorded-clicks.js';
import { serviceForFile } from './support/service.js';

const svc = serviceForFile();
let browser: Browser;
let pageUrl: string;

beforeAll(async () => {
  await svc.container.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = svc.container.app.server.address() as AddressInfo;
  const org = await svc.createOrganization('Shared in a browser', 'ENTERPRISE');
  const link = await svc.createLink(org, { url: 'https://example.com/browser', title: 'Autumn sale' });
  await recordClicks(svc, org.id, 'url', link.id, [
    { at: new Date(Date.now() - 86_400_000).toISOString(), ip: '211.234.10.1' },
    { at: new Date(Date.now() - 20 * 86_400_000).toISOString(), ip: '8.8.8.8' },
  ]);
  const res = await svc.service('POST', `/urls/${link.id}/share`, org.apiKey);
  expect(res.statusCode).toBe(201);
  pageUrl = `http://127.0.0.1:${port}${new URL(res.json().shareUrl).pathname}`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
});

describe('the shared statistics page in a browser', () => {
  it('shows the figures to a stranger, switches the period, and breaks no policy', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const violations: string[] = [];
    page.on('console', (m: ConsoleMessage) => {
      if (/content security policy/i.test(m.text())) violations.push(m.text());
    });
    await page.goto(pageUrl);
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Autumn sale');
    expect(await page.getByRole('definition').first().innerText()).toBe('2');
    const countries = page.getByRole('table').filter({ has: page.getByRole('columnheader', { name: 'Country' }) });
    expect(await countries.getByRole('rowheader').allInnerTexts()).toEqual(['KR', 'US']);
    expect(await page.getByRole('img').count()).toBe(1);
    expect(await page.getByRole('link', { name: 'Last 30 days' }).getAttribute('aria-current')).toBe('page');

    await page.getByRole('link', { name: 'Last 7 days' }).click();
    await page.waitForURL(/days=7/);
    expect(await page.getByRole('link', { name: 'Last 7 days' }).getAttribute('aria-current')).toBe('page');
    expect(await page.getByRole('definition').first().innerText()).toBe('1');
    expect(violations).toEqual([]);
    await context.close();
  });
});
