// Shared statistics (contract: "Filters and shared statistics"): POST urls/{id}/share answers 201
// with a shareUrl that opens without any credentials and shows the link's figures as a person
// reads them; posting again replaces the address; DELETE answers 204 and the address 404s; another
// organization's link is a 404 on both.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/error-body.js';
import { UA } from './support/deep-links.js';
import { recordClicks } from './support/recorded-clicks.js';
import { serviceForFile } from './support/service.js';

const svc = serviceForFile();
let org: { id: number; apiKey: string };
let other: { id: number; apiKey: string };
let linkId: number;

const ago = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();

/** The page as a browser without any cookie or key gets it. */
const open = (shareUrl: string, query = '') => {
  const { pathname } = new URL(shareUrl);
  return svc.inject({ method: 'GET', url: `${pathname}${query}`, headers: { accept: 'text/html' } });
};

/** The page's text as a person reads it: tags out, entities decoded, spaces collapsed. */
const text = (html: string) =>
  html
    .replace(/<style[^>]*>[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');

beforeAll(async () => {
  org = await svc.createOrganization('Sharing', 'ENTERPRISE');
  other = await svc.createOrganization('Stranger', 'ENTERPRISE');
  linkId = (await svc.createLink(org, { url: 'https://example.com/shared', title: 'Spring <sale>' })).id;
  await recordClicks(svc, org.id, 'url', linkId, [
    { at: ago(1), ip: '211.234.10.1', referrer: 'https://m.facebook.com/story' },
    { at: ago(1), ip: '211.234.10.2', userAgent: UA.desktop },
    { at: ago(2), ip: '8.8.8.8', userAgent: UA.pixel },
    { at: ago(20), ip: '211.234.10.3' },
  ]);
});

describe('shared statistics', () => {
  let shareUrl: string;

  it('POST urls/{id}/share answers 201 with an address on the service', async () => {
    const res = await svc.service('POST', `/urls/${linkId}/share`, org.apiKey);
    expect(res.statusCode, res.body).toBe(201);
    expect(Object.keys(res.json())).toEqual(['shareUrl']);
    shareUrl = res.json().shareUrl;
    expect(shareUrl.startsWith(`${svc.config.server.publicBaseUrl}/`)).toBe(true);
  });

  it('opens with no credentials and shows the figures of the last 30 days', async () => {
    const res = await open(shareUrl);
    expect(res.statusCode).toBe(200);
    expect(String(res.headers['content-type'])).toContain('text/html');
    const page = text(res.body);
    expect(page).toContain('Spring <sale>');
    expect(res.body).not.toContain('<sale>');
    expect(page).toMatch(/Clicks 4 /);
    expect(page).toMatch(/Unique visitors 4 /);
    expect(page).toMatch(/Top countries Country Clicks Share KR 3 75% US 1 25%/);
    expect(page).toMatch(/Top referrers .*m\.facebook\.com 1 25%/);
    expect(page).toMatch(/Top browsers .*Chrome/);
    expect(page).toMatch(/Devices Device Clicks Share Mobile 3 75% Desktop 1 25% Tablet 0 0%/);
    expect(page).toMatch(/Destinations Destination Clicks Share https:\/\/example\.com\/shared 4 100%/);
    // The bundled database knows countries only: no region or city panel (geo-city.test.ts has them).
    expect(page).not.toContain('Top regions');
    expect(page).not.toContain('Top cities');
    expect(page).toContain('Clicks per day');
    expect(res.body).toMatch(/<svg [^>]*role="img"/);
    expect(page).toContain('Last 30 days');
    expect(res.body).toContain('aria-current="page">Last 30 days');
    expect(res.body).toContain('<html lang="en">');
  });

  it('narrows to the last 7 days when asked', async () => {
    const page = text((await open(shareUrl, '?days=7')).body);
    expect(page).toMatch(/Clicks 3 /);
  });

  it('sends the security headers of every page, and is never cached or indexed', async () => {
    const res = await open(shareUrl);
    const csp = String(res.headers['content-security-policy']);
    const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
    expect(nonce).toBeTruthy();
    expect(res.body).toContain(`<style nonce="${nonce}">`);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-robots-tag']).toContain('noindex');
  });

  it('a second POST replaces the address: the old one answers 404', async () => {
    const second = (await svc.service('POST', `/urls/${linkId}/share`, org.apiKey)).json().shareUrl;
    expect(second).not.toBe(shareUrl);
    expect((await open(shareUrl)).statusCode).toBe(404);
    expect((await open(second)).statusCode).toBe(200);
    shareUrl = second;
  });

  it("another organization's link is a 404 to share or unshare, and its address keeps working", async () => {
    expectError(await svc.service('POST', `/urls/${linkId}/share`, other.apiKey), 404, {
      code: 'SHORT_URL_NOT_FOUND',
    });
    expectError(await svc.service('DELETE', `/urls/${linkId}/share`, other.apiKey), 404, {
      code: 'SHORT_URL_NOT_FOUND',
    });
    expect((await open(shareUrl)).statusCode).toBe(200);
  });

  it('DELETE urls/{id}/share answers 204, after which the address answers 404', async () => {
    const res = await svc.service('DELETE', `/urls/${linkId}/share`, org.apiKey);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const gone = await open(shareUrl);
    expect(gone.statusCode).toBe(404);
    expect(String(gone.headers['content-type'])).toContain('text/html');
  });

  it('an address that never was answers 404', async () => {
    expect((await open(`${svc.config.server.publicBaseUrl}/console/shared/nothing-here`)).statusCode).toBe(404);
  });
});
