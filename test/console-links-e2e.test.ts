// Link management in the console, end to end in headless Chromium against the real service on
// loopback: a CSV imported with one bad row and that row's reason, the list filtered by a tag
// (also from the address), three links tagged at once from the bulk bar, the Tags screen, and a
// password set in the editor that a visitor must type before landing on the destination (a page
// this test serves over HTTPS on loopback), the links exported as CSV, and an import job from a
// stand-in Shlink followed to its summary. axe checks every new screen.
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/chromium.js';
import { startImportFixture } from './support/import-fixtures.js';
import { expectAccessible, signInAs, startListeningService } from './support/console-browser.js';
import { isolate, type Isolation, type TestService } from './support/service.js';

/** A self-signed certificate for 127.0.0.1 (test/support/tls). */
const loopbackTls = () => ({
  key: fs.readFileSync(path.join(import.meta.dirname, 'support/tls/loopback-key.pem')),
  cert: fs.readFileSync(path.join(import.meta.dirname, 'support/tls/loopback-cert.pem')),
});

describe('console link management end to end', () => {
  let isolation: Isolation;
  let svc: TestService;
  let BASE: string;
  let browser: Browser;
  let landing: https.Server;
  let LANDING: string;

  beforeAll(async () => {
    landing = https.createServer(loopbackTls(), (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="en"><title>Landing</title><h1>Welcome to ${req.url}</h1></html>`);
    });
    await new Promise<void>((resolve) => landing.listen(0, '127.0.0.1', resolve));
    LANDING = `https://127.0.0.1:${(landing.address() as AddressInfo).port}`;
    isolation = await isolate();
    // Private targets: the links lead to the landing page on loopback; imports read a stand-in
    // service over plain HTTP on loopback, looked for every 200 ms.
    ({ svc, base: BASE } = await startListeningService(isolation, {
      LINK_ALLOW_PRIVATE_TARGETS: 'true',
      IMPORT_ALLOW_INSECURE: '1',
      IMPORT_POLL_MS: '200',
    }));
    browser = await launchChromium();
  });

  afterAll(async () => {
    await browser?.close();
    await svc?.close();
    await isolation?.dispose();
    await new Promise<void>((resolve) => landing?.close(() => resolve()));
  });

  /** A developer of a new PRO organization, signed in on the Links screen. */
  async function developerOnLinks(team: string, email: string) {
    const org = await svc.createOrganization(team, 'PRO');
    await svc.admin('POST', `/organizations/${org.id}/members`, { email, role: 'developer' });
    const session = await signInAs(browser, svc, BASE, email);
    return { org, ...session };
  }

  const makeLink = (apiKey: string, body: Record<string, unknown>) =>
    svc.service('POST', '/urls', apiKey, body).then((res) => {
      expect(res.statusCode, res.body).toBe(201);
      return res.json() as { id: number; shortUrl: string; shortCode: string; tags: string[] };
    });

  it('filters the links by a tag, from the select and from the address, and shows the tags screen', {
    timeout: 90_000,
  }, async () => {
    const { org, ctx, page } = await developerOnLinks('Tag Team', 'tagger@example.com');
    await makeLink(org.apiKey, { url: `${LANDING}/a`, customAlias: 'tagged-a', tags: ['spring'] });
    await makeLink(org.apiKey, { url: `${LANDING}/b`, customAlias: 'tagged-b', tags: ['spring', 'vip'] });
    await makeLink(org.apiKey, { url: `${LANDING}/c`, customAlias: 'untagged-c' });
    await page.getByRole('link', { name: '링크', exact: true }).click();
    const rows = page.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    const b = rows.filter({ hasText: `${BASE}/tagged-b` });
    expect(await b.getByTestId('tag-chips').innerText()).toMatch(/spring\s+vip/);

    await page.getByRole('combobox', { name: '태그로 거르기' }).click();
    await page.getByRole('option', { name: 'vip' }).click();
    await expect.poll(() => rows.count()).toBe(1);
    expect(await rows.innerText()).toContain(`${BASE}/tagged-b`);
    expect(new URL(page.url()).searchParams.get('tag')).toBe('vip');
    await expectAccessible(page, 'links filtered by a tag');

    // The filtered address opened again shows the same list.
    await page.goto(`${BASE}/console/links?tag=spring`);
    await expect.poll(() => rows.count()).toBe(2);
    expect(await page.locator('tbody').innerText()).not.toContain('untagged-c');

    // The Tags screen: both tags with their link counts; recoloured.
    await page.getByRole('link', { name: '태그', exact: true }).click();
    const spring = page.getByTestId('tags').getByRole('row').filter({ hasText: 'spring' });
    await expect.poll(() => spring.innerText()).toMatch(/spring\s+#[0-9a-f]{6}\s+2/);
    await expectAccessible(page, 'tags screen');
    await spring.getByRole('button', { name: '편집: spring' }).click();
    const dialog = page.getByRole('dialog', { name: '태그 편집: spring' });
    await dialog.getByRole('textbox', { name: '색' }).fill('#c2255c');
    await expectAccessible(page, 'tag editor');
    await dialog.getByRole('button', { name: '저장' }).click();
    await expect.poll(() => spring.innerText()).toContain('#c2255c');
    const tags = (await svc.service('GET', '/tags', org.apiKey)).json() as { items: { name: string; color: string }[] };
    expect(tags.items.find((t) => t.name === 'spring')?.color).toBe('#c2255c');
    await ctx.close();
  });

  it('tags three links at once from the bulk bar', { timeout: 90_000 }, async () => {
    const { org, ctx, page } = await developerOnLinks('Bulk Team', 'bulk@example.com');
    const made = [];
    for (const code of ['bulk-1', 'bulk-2', 'bulk-3', 'bulk-4'])
      made.push(await makeLink(org.apiKey, { url: `${LANDING}/${code}`, customAlias: code }));
    await page.getByRole('link', { name: '링크', exact: true }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(4);
    for (const code of ['bulk-1', 'bulk-2', 'bulk-3'])
      await page.getByRole('checkbox', { name: `선택: ${BASE}/${code}` }).check();
    const bar = page.getByTestId('bulk-bar');
    expect(await bar.innerText()).toContain('3개 선택됨');
    await expectAccessible(page, 'links with the bulk bar');
    await bar.getByRole('combobox', { name: '태그', exact: true }).fill('launch');
    await bar.getByRole('button', { name: '태그 붙이기' }).click();
    await expect.poll(() => page.getByRole('status').first().innerText()).toContain('링크 3개를 바꿨습니다.');
    for (const link of made) {
      const now = (await svc.service('GET', `/urls/${link.id}`, org.apiKey)).json() as { tags: string[] };
      expect(now.tags, link.shortCode).toEqual(link.shortCode === 'bulk-4' ? [] : ['launch']);
    }
    await expect.poll(() => page.locator('tbody').getByTestId('tag-chips').count()).toBe(3);
    await ctx.close();
  });

  it('imports a CSV with one bad row and shows that row and its reason', { timeout: 90_000 }, async () => {
    const { org, ctx, page } = await developerOnLinks('Import Team', 'importer@example.com');
    await page.getByRole('link', { name: '링크', exact: true }).click();
    await page.getByRole('button', { name: 'CSV 가져오기' }).click();
    const wizard = page.getByRole('dialog', { name: 'CSV에서 링크 가져오기' });
    const csv = [
      'originalUrl,customAlias,title,tags',
      `${LANDING}/one,csv-one,First,imported|spring`,
      'ftp://example.com/nope,csv-bad,Bad,',
      `${LANDING}/three,csv-three,Third,imported`,
    ].join('\n');
    await wizard
      .locator('input[type=file]')
      .setInputFiles({ name: 'links.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect.poll(() => wizard.getByTestId('csv-columns').innerText()).toContain('customAlias');
    expect(await wizard.getByTestId('csv-preview').innerText()).toContain('ftp://example.com/nope');
    await expectAccessible(page, 'CSV import preview');
    await wizard.getByRole('button', { name: '가져오기' }).click();
    const errors = wizard.getByTestId('csv-errors');
    await expect.poll(() => errors.innerText()).toMatch(/2\s+.*https/);
    await expectAccessible(page, 'CSV import errors');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      wizard.getByRole('button', { name: '오류를 CSV로 내려받기' }).click(),
    ]);
    const errorCsv = fs.readFileSync((await download.path())!, 'utf8');
    expect(errorCsv.split('\r\n')[0]).toBe('row,error,originalUrl,customAlias,title,tags');
    expect(errorCsv.split('\r\n')[1]).toMatch(/^2,.*,ftp:\/\/example\.com\/nope,csv-bad,Bad,$/);
    const imported = (await svc.service('GET', '/urls?tag=imported', org.apiKey)).json() as {
      content: { shortCode: string }[];
    };
    expect(imported.content.map((l) => l.shortCode).sort()).toEqual(['csv-one', 'csv-three']);
    await ctx.close();
  });

  it('sets a password in the editor, and a visitor types it before landing on the destination', {
    timeout: 90_000,
  }, async () => {
    const { org, ctx, page } = await developerOnLinks('Secret Team', 'secret@example.com');
    await page.getByRole('link', { name: '링크', exact: true }).click();
    await page.getByRole('button', { name: '옵션 더 보기' }).click();
    const editor = page.getByRole('dialog', { name: '새 단축 링크' });
    await editor.getByLabel('원본 URL').fill(`${LANDING}/members-only`);
    await editor.getByLabel('별칭 (선택)').fill('members');
    await editor.getByLabel('비밀번호', { exact: true }).fill('open sesame');
    await editor.getByLabel('클릭 한도').fill('10');
    await editor.getByLabel('태그', { exact: true }).fill('private');
    await editor.getByLabel('태그', { exact: true }).press('Enter');
    await editor.getByLabel('메모').fill('for the members');
    await expectAccessible(page, 'link editor with the new fields');
    await editor.getByRole('button', { name: '만들기' }).click();
    await expect.poll(() => page.getByRole('status').first().innerText()).toContain(`${BASE}/members`);
    const row = page.locator('tbody tr').filter({ hasText: `${BASE}/members` });
    expect(await row.innerText()).toContain('비밀번호');
    await expect.poll(() => row.getByTestId('remaining-clicks').innerText()).toBe('남은 클릭 10');
    const [made] = (
      (await svc.service('GET', '/urls?keyword=members', org.apiKey)).json() as { content: Record<string, unknown>[] }
    ).content;
    expect(made).toMatchObject({ passwordProtected: true, clickLimit: 10, tags: ['private'], note: 'for the members' });
    expect(JSON.stringify(made)).not.toContain('open sesame');

    // Edited again: the editor says it is protected and shows no password.
    await page.getByRole('button', { name: `편집: ${BASE}/members` }).click();
    const edit = page.getByRole('dialog', { name: '링크 편집' });
    expect(await edit.getByTestId('password-protected').innerText()).toBe('비밀번호로 보호됨');
    expect(await edit.getByLabel('새 비밀번호', { exact: true }).inputValue()).toBe('');
    await edit.getByRole('button', { name: '취소' }).click();
    await ctx.close();

    // A visitor: the password page first, a wrong password refused, the right one lands.
    const visitor = await browser.newContext({ locale: 'ko-KR', ignoreHTTPSErrors: true });
    const tab = await visitor.newPage();
    await tab.goto(`${BASE}/members`);
    expect(await tab.locator('h1').innerText()).toBe('비밀번호로 보호된 링크입니다');
    await expectAccessible(tab, 'password page');
    await tab.getByLabel('비밀번호').fill('wrong one');
    await tab.getByRole('button', { name: '열기' }).click();
    await expect.poll(() => tab.getByRole('alert').innerText()).toContain('비밀번호가 맞지 않습니다');
    await tab.getByLabel('비밀번호').fill('open sesame');
    await tab.getByRole('button', { name: '열기' }).click();
    await expect.poll(() => tab.url()).toBe(`${LANDING}/members-only`);
    expect(await tab.locator('h1').innerText()).toBe('Welcome to /members-only');
    await visitor.close();
  });

  it('exports the links as CSV, and follows an import job from Shlink to its summary', {
    timeout: 90_000,
  }, async () => {
    const { org, ctx, page } = await developerOnLinks('Move Team', 'mover@example.com');
    await makeLink(org.apiKey, { url: `${LANDING}/kept`, customAlias: 'kept', tags: ['spring', 'vip'] });
    await page.getByRole('link', { name: '링크', exact: true }).click();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'CSV로 내보내기' }).click(),
    ]);
    const exported = fs.readFileSync((await download.path())!, 'utf8');
    const [header, row] = exported.trim().split(/\r?\n/);
    expect(header).toContain('shortUrl');
    expect(row).toContain(`${BASE}/kept`);
    expect(row).toContain('spring|vip');

    const links = ['one', 'two', 'three'].map((code, i) => ({
      id: `s-${i}`,
      code: `shl-${code}`,
      url: `https://example.com/${code}`,
      title: null,
      tags: [],
      expiresAt: null,
      maxVisits: null,
      createdAt: '2026-11-01T00:00:00Z',
    }));
    const shlink = await startImportFixture('shlink', 'shlink-token', links);
    try {
      await page.getByRole('link', { name: '가져오기 작업' }).click();
      await expect.poll(() => page.locator('main').innerText()).toContain('아직 가져오기 작업이 없습니다.');
      await expectAccessible(page, 'import jobs screen (empty)');
      await page.getByRole('combobox', { name: '서비스' }).click();
      await page.getByRole('option', { name: 'Shlink' }).click();
      await page.getByLabel('API 토큰').fill('shlink-token');
      await page.getByLabel('서버 주소').fill(shlink.url);
      await page.getByRole('button', { name: '시작' }).click();
      const job = page.getByTestId('import-job');
      await expect.poll(() => job.innerText(), { timeout: 30_000 }).toContain('완료');
      expect(await job.innerText()).toContain('가져옴 3, 건너뜀 0, 실패 0');
      await expect.poll(() => page.getByTestId('import-jobs').getByRole('row').count()).toBe(2);
      await expectAccessible(page, 'import jobs screen with a finished job');
      const imported = (await svc.service('GET', '/urls?keyword=shl-', org.apiKey)).json() as { totalElements: number };
      expect(imported.totalElements).toBe(3);
    } finally {
      await shlink.close();
    }
    await ctx.close();
  });
});
