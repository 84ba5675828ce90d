// The pages a visitor sees instead of a plain redirect (404, 410, the interstitial, the deep-link
// landing page) speak the visitor's language (Accept-Language: Korean, English, Japanese), else the
// link owner's default (PUT /api/admin/v1/organizations/{id}/language; Korean unless set).
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/error-body.js';
import { launchChromium } from './support/chromium.js';
import { serviceForFile, type TestLinkInput } from './support/service.js';

const CHROME =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
const DOMAIN = 'go.english-shop.example';

let base: string;
let browser: Browser | undefined;
const orgs: Record<'ko' | 'en' | 'ja', { id: number; apiKey: string }> = {} as never;

const createLink = (language: 'ko' | 'en' | 'ja', input: Partial<TestLinkInput>) =>
  svc.createLink(orgs[language], { url: 'https://shop.example/item', ...input });

async function expiredLink(language: 'ko' | 'en' | 'ja'): Promise<string> {
  const link = await createLink(language, {});
  // Expired before its first visit, so no cached copy says otherwise.
  await svc.container.postgres.sql`update short_urls set expires_at = now() - interval '1 day' where id = ${link.id}`;
  return link.shortCode;
}

const visit = (path: string, acceptLanguage?: string, host = 'sgnp.example') =>
  svc.inject({
    method: 'GET',
    url: path,
    headers: { host, 'user-agent': CHROME, ...(acceptLanguage ? { 'accept-language': acceptLanguage } : {}) },
  });

const langOf = (html: string) => /<html lang="([a-z]+)"/.exec(html)?.[1];

const svc = serviceForFile({ PUBLIC_BASE_URL: 'https://sgnp.example' });

beforeAll(async () => {
  for (const language of ['ko', 'en', 'ja'] as const) {
    orgs[language] = await svc.createOrganization(`Shop ${language}`, 'PRO');
    if (language !== 'ko') {
      const set = await svc.admin('PUT', `/organizations/${orgs[language].id}/language`, { defaultLanguage: language });
      expect(set.statusCode, set.body).toBe(200);
      expect(set.json()).toMatchObject({ defaultLanguage: language });
    }
  }
  const domain = (
    await svc.admin('POST', `/organizations/${orgs.en.id}/custom-domains`, { domainName: DOMAIN })
  ).json() as { id: number };
  expect((await svc.admin('PUT', `/custom-domains/${domain.id}/status`, { status: 'VERIFIED' })).statusCode).toBe(200);
  base = await svc.container.listen();
});

afterAll(async () => {
  await browser?.close();
});

describe('visitor pages follow Accept-Language', () => {
  it('the 404 page: Korean, English or Japanese as the browser asks; Korean on the service host when it asks for none of them', async () => {
    const cases: Array<[string | undefined, string, string]> = [
      ['ja-JP,ja;q=0.9,en;q=0.8', 'ja', 'リンクが見つかりません'],
      ['en-US,en;q=0.9', 'en', 'Link not found'],
      ['ko-KR', 'ko', '링크를 찾을 수 없습니다'],
      ['fr-FR,de;q=0.5', 'ko', '링크를 찾을 수 없습니다'],
      [undefined, 'ko', '링크를 찾을 수 없습니다'],
    ];
    for (const [header, lang, heading] of cases) {
      const res = await visit('/noSuchCode9', header);
      expect(res.statusCode).toBe(404);
      expect(langOf(res.body), String(header)).toBe(lang);
      expect(res.body).toContain(`<h1>${heading}</h1>`);
      expect(res.headers['content-language']).toBe(lang);
    }
  });

  it("the 410 page: the visitor's language first, the link owner's default when the browser names none of ours", async () => {
    const english = await expiredLink('en');
    expect(langOf((await visit(`/${english}`)).body)).toBe('en');
    expect((await visit(`/${english}`, 'fr-FR')).body).toContain('This link has expired');
    expect((await visit(`/${english}`, 'ja')).body).toContain('このリンクは有効期限が切れています');
    const korean = await expiredLink('ko');
    const res = await visit(`/${korean}`);
    expect(res.statusCode).toBe(410);
    expect(res.body).toContain('만료된 링크입니다');
    expect((await visit(`/${korean}`, 'en-GB')).body).toContain('This link has expired');
  });

  it("the interstitial: its button and countdown in the visitor's language, else the owner's", async () => {
    const link = await createLink('ja', { showAdPage: true });
    const japanese = await visit(`/${link.shortCode}`);
    expect(japanese.statusCode).toBe(200);
    expect(langOf(japanese.body)).toBe('ja');
    expect(japanese.body).toContain('>続ける</a>');
    expect(japanese.body).toContain('あと<span id="s">');
    const korean = await visit(`/${link.shortCode}`, 'ko-KR,ko;q=0.9');
    expect(korean.body).toContain('>계속하기</a>');
    expect(korean.body).toContain('초 후 이동합니다');
  });

  it("the 404 page on a custom domain speaks its owner's language when the browser names none of ours", async () => {
    const res = await visit('/noSuchCode9', undefined, DOMAIN);
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('Link not found');
    expect((await visit('/', 'ja', DOMAIN)).body).toContain('リンクが見つかりません');
  });

  it('refuses a default language we do not speak', async () => {
    expectError(await svc.admin('PUT', `/organizations/${orgs.ko.id}/language`, { defaultLanguage: 'fr' }), 400, {
      code: 'VALIDATION_FAILED',
      field: 'defaultLanguage',
    });
  });

  it('in a browser set to Japanese, then to English, the interstitial reads in that language', async () => {
    const link = await createLink('ko', { showAdPage: true, title: null });
    browser ??= await launchChromium();
    for (const [locale, lang, button] of [
      ['ja-JP', 'ja', '続ける'],
      ['en-US', 'en', 'Continue'],
    ] as const) {
      const context = await browser.newContext({ locale, userAgent: CHROME });
      const page = await context.newPage();
      const res = await page.goto(`${base}/${link.shortCode}`);
      expect(res?.status()).toBe(200);
      expect(await page.evaluate('document.documentElement.lang')).toBe(lang);
      await expect(page.getByRole('link', { name: button }).isVisible()).resolves.toBe(true);
      await context.close();
    }
  });
});
