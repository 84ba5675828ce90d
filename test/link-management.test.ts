// Link management as an API user and a visitor see it (contract: "Link management"): tags on short
// URLs and campaigns and the tag screen's operations, the archive, notes, password-protected links
// (the form, a wrong and a right password, the day-long cookie, previews that tell nothing), click
// limits (the 410 page or the limit's address) and the destination after expiry.
import { beforeAll, describe, expect, it } from 'vitest';
import { expectError } from './support/error-body.js';
import type { ClickLimits } from '../src/core/redirect/click-limits.js';
import { serviceForFile } from './support/service.js';

const BASE = 'https://sgnp.example';
const DESKTOP = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36';

const svc = serviceForFile({ PUBLIC_BASE_URL: BASE });
let acme: { id: number; apiKey: string };
let rival: { id: number; apiKey: string };

beforeAll(async () => {
  acme = await svc.createOrganization('Acme', 'FREE');
  rival = await svc.createOrganization('Rival', 'FREE');
});

const api = (method: string, url: string, body?: unknown, apiKey = acme.apiKey) =>
  svc.service(method, url, apiKey, body);

/** A visitor's request to a short link, on the service's host. */
const visit = (path: string, options: { method?: string; cookie?: string; ua?: string; form?: string } = {}) =>
  svc.inject({
    method: (options.method ?? 'GET') as 'GET',
    url: path,
    headers: {
      host: 'sgnp.example',
      'user-agent': options.ua ?? DESKTOP,
      'accept-language': 'en',
      ...(options.cookie ? { cookie: options.cookie } : {}),
      ...(options.form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
    },
    ...(options.form === undefined ? {} : { payload: options.form }),
  });

const codeOf = (shortUrl: string) => `/${new URL(shortUrl).pathname.slice(1)}`;

describe('tags', () => {
  it('are created by name on a link, shown on the record, and filter the lists', async () => {
    const a = await api('POST', '/urls', { url: 'https://example.com/a', tags: ['Spring', 'email', 'spring '] });
    expect(a.statusCode, a.body).toBe(201);
    expect(a.json().tags).toEqual(['email', 'Spring']);
    const b = await api('POST', '/urls', { url: 'https://example.com/b', tags: ['EMAIL'] });
    expect(b.json().tags).toEqual(['email']);
    await api('POST', '/urls', { url: 'https://example.com/c' });

    const tagged = (await api('GET', '/urls?tag=Email')).json();
    expect(tagged.content.map((u: { originalUrl: string }) => u.originalUrl).sort()).toEqual([
      'https://example.com/a',
      'https://example.com/b',
    ]);
    expect((await api('GET', '/urls?tag=nothing-like-it')).json().content).toEqual([]);

    const tags = (await api('GET', '/tags')).json().items;
    expect(tags.map((t: { name: string; linkCount: number }) => [t.name, t.linkCount])).toEqual([
      ['email', 2],
      ['Spring', 1],
    ]);
    for (const t of tags) expect(t.color).toMatch(/^#[0-9a-f]{6}$/);
    // Another organization has none of them.
    expect((await api('GET', '/tags', undefined, rival.apiKey)).json().items).toEqual([]);
    expect((await api('GET', '/urls?tag=email', undefined, rival.apiKey)).json().content).toEqual([]);
  });

  it('are renamed, recoloured and deleted from the tag list, and the links follow', async () => {
    const link = (await api('POST', '/urls', { url: 'https://example.com/r', tags: ['old-name', 'keep'] })).json();
    const tag = (await api('GET', '/tags')).json().items.find((t: { name: string }) => t.name === 'old-name');
    const renamed = await api('PUT', `/tags/${tag.id}`, { name: 'New name', color: '#112233' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ name: 'New name', color: '#112233', linkCount: 1 });
    expect((await api('GET', `/urls/${link.id}`)).json().tags).toEqual(['keep', 'New name']);

    expectError(await api('PUT', `/tags/${tag.id}`, { name: 'KEEP' }), 409, { code: 'TAG_EXISTS' });
    expectError(await api('POST', '/tags', { name: 'keep' }), 409, { code: 'TAG_EXISTS' });
    expectError(await api('DELETE', `/tags/${tag.id}`, undefined, rival.apiKey), 404);

    expect((await api('DELETE', `/tags/${tag.id}`)).statusCode).toBe(204);
    expect((await api('GET', `/urls/${link.id}`)).json().tags).toEqual(['keep']);
    expect((await api('GET', '/urls?tag=New name')).json().content).toEqual([]);
  });

  it('go on campaigns too, and an update replaces them', async () => {
    const c = await api('POST', '/campaigns', { name: 'Launch', originalUrl: 'https://example.com/l', tags: ['q3'] });
    expect(c.statusCode, c.body).toBe(201);
    expect(c.json().tags).toEqual(['q3']);
    expect((await api('GET', '/campaigns?tag=Q3')).json().content.map((x: { id: number }) => x.id)).toEqual([
      c.json().id,
    ]);
    const updated = await api('PUT', `/campaigns/${c.json().id}`, { tags: ['q4', 'launch'] });
    expect(updated.json().tags).toEqual(['launch', 'q4']);
  });

  it('refuse more than 20 on a link and names longer than 50 characters, field by field', async () => {
    const many = Array.from({ length: 21 }, (_, i) => `t${i}`);
    const tooMany = expectError(await api('POST', '/urls', { url: 'https://example.com/x', tags: many }), 400);
    expect(tooMany.details?.map((d) => d.field)).toEqual(['tags']);
    const long = expectError(await api('POST', '/urls', { url: 'https://example.com/x', tags: ['x'.repeat(51)] }), 400);
    expect(long.details?.map((d) => d.field)).toEqual(['tags.0']);
  });
});

describe('notes and the archive', () => {
  it('keeps an archived link redirecting but out of the default list', async () => {
    const link = (
      await api('POST', '/urls', { url: 'https://example.com/archived', note: 'for the spring mail' })
    ).json();
    expect(link).toMatchObject({ note: 'for the spring mail', archived: false });
    const archived = await api('PUT', `/urls/${link.id}`, { archived: true });
    expect(archived.json().archived).toBe(true);
    const listed = (await api('GET', '/urls?size=100')).json().content.map((u: { id: number }) => u.id);
    expect(listed).not.toContain(link.id);
    const archive = (await api('GET', '/urls?archived=true')).json().content.map((u: { id: number }) => u.id);
    expect(archive).toEqual([link.id]);
    const click = await visit(codeOf(link.shortUrl));
    expect(click.statusCode).toBe(302);
    expect(click.headers.location).toBe('https://example.com/archived');
    expectError(await api('PUT', `/urls/${link.id}`, { note: 'n'.repeat(2001) }), 400, { field: 'note' });
  });
});

describe('a password-protected link', () => {
  let link: { id: number; shortUrl: string };
  beforeAll(async () => {
    const res = await api('POST', '/urls', {
      url: 'https://example.com/secret-place',
      title: 'Team offsite',
      password: 'open sesame',
      ogDescription: 'where we meet',
    });
    expect(res.statusCode, res.body).toBe(201);
    link = res.json();
  });

  it('shows that it is protected and never the password', async () => {
    const record = (await api('GET', `/urls/${link.id}`)).json();
    expect(record.passwordProtected).toBe(true);
    expect(JSON.stringify(record)).not.toContain('sesame');
    expect(JSON.stringify(record)).not.toContain('scrypt');
  });

  it('answers the form, refuses a wrong password and sends the right one on with a cookie', async () => {
    const path = codeOf(link.shortUrl);
    const form = await visit(path);
    expect(form.statusCode).toBe(200);
    expect(form.headers['content-type']).toContain('text/html');
    expect(form.body).toContain('<form method="post">');
    expect(form.body).toContain('name="password"');
    expect(form.body).toContain('Team offsite');
    expect(form.body).not.toContain('secret-place');

    const wrong = await visit(path, { method: 'POST', form: 'password=nope' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).toContain('name="password"');
    expect(wrong.body).toContain('not right');

    const right = await visit(path, { method: 'POST', form: `password=${encodeURIComponent('open sesame')}` });
    expect(right.statusCode).toBe(302);
    expect(right.headers.location).toBe('https://example.com/secret-place');
    const setCookie = String(right.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).toMatch(/Secure/);
    const cookie = setCookie.split(';')[0]!;

    // The same browser is not asked again; another is.
    const again = await visit(path, { cookie });
    expect(again.statusCode).toBe(302);
    expect(again.headers.location).toBe('https://example.com/secret-place');
    expect((await visit(path)).statusCode).toBe(200);
    // A forged or another link's cookie unlocks nothing.
    const [name, value] = cookie.split('=');
    expect((await visit(path, { cookie: `${name}=${value!.slice(0, -2)}xx` })).statusCode).toBe(200);
  });

  it('asks again once the password changes, and not at all once it is removed', async () => {
    const path = codeOf(link.shortUrl);
    const right = await visit(path, { method: 'POST', form: 'password=open+sesame' });
    const cookie = String(right.headers['set-cookie']).split(';')[0]!;
    await api('PUT', `/urls/${link.id}`, { password: 'another one' });
    expect((await visit(path, { cookie })).statusCode).toBe(200);
    const removed = await api('PUT', `/urls/${link.id}`, { password: null });
    expect(removed.json().passwordProtected).toBe(false);
    expect((await visit(path)).statusCode).toBe(302);
    await api('PUT', `/urls/${link.id}`, { password: 'open sesame' });
  });

  it('gives link previews no destination details', async () => {
    const preview = await visit(codeOf(link.shortUrl), { ua: 'facebookexternalhit/1.1' });
    expect(preview.statusCode).toBe(200);
    expect(preview.body).toContain('Team offsite');
    expect(preview.body).not.toContain('secret-place');
    expect(preview.body).not.toContain('where we meet');
  });

  it('locks an address out of the link after too many wrong passwords', async () => {
    const other = (
      await api('POST', '/urls', { url: 'https://example.com/guarded', password: 'correct horse' })
    ).json();
    const path = codeOf(other.shortUrl);
    let last = await visit(path, { method: 'POST', form: 'password=guess' });
    for (let i = 0; i < 30 && last.statusCode === 401; i++)
      last = await visit(path, { method: 'POST', form: 'password=guess' });
    expect(last.statusCode).toBe(429);
    expect(last.headers['retry-after']).toMatch(/^\d+$/);
    expect(last.body).toContain('Too many wrong attempts');
    // Even the right password waits now; the first link is not affected.
    expect((await visit(path, { method: 'POST', form: 'password=correct+horse' })).statusCode).toBe(429);
    expect((await visit(codeOf(link.shortUrl), { method: 'POST', form: 'password=open+sesame' })).statusCode).toBe(302);
  });

  it('refuses a password under 4 characters, and a form post to a link without one', async () => {
    const short = expectError(await api('POST', '/urls', { url: 'https://example.com/x', password: 'abc' }), 400);
    expect(short.details?.map((d) => d.field)).toEqual(['password']);
    const open = (await api('POST', '/urls', { url: 'https://example.com/open' })).json();
    const post = await visit(codeOf(open.shortUrl), { method: 'POST', form: 'password=x' });
    expectError(post, 405, { code: 'METHOD_NOT_ALLOWED' });
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});

describe('click limits and the destination after expiry', () => {
  it('answers the 410 page once the limit is reached, counting people only', async () => {
    const link = (await api('POST', '/urls', { url: 'https://example.com/limited', clickLimit: 2 })).json();
    expect(link).toMatchObject({ clickLimit: 2, remainingClicks: 2, clickLimitUrl: null });
    const path = codeOf(link.shortUrl);
    // A crawler passes without using up a click.
    expect((await visit(path, { ua: 'Googlebot/2.1 (+http://www.google.com/bot.html)' })).statusCode).toBe(302);
    expect((await visit(path)).statusCode).toBe(302);
    expect((await visit(path)).statusCode).toBe(302);
    const third = await visit(path);
    expect(third.statusCode).toBe(410);
    expect(third.body).toContain('reached the number of clicks');
    await (svc.container.deps.clickLimits as ClickLimits).flush();
    expect((await api('GET', `/urls/${link.id}`)).json().remainingClicks).toBe(0);
  });

  it('sends clicks past the limit to clickLimitUrl when set', async () => {
    const link = (
      await api('POST', '/campaigns', {
        name: 'Limited offer',
        originalUrl: 'https://example.com/offer',
        clickLimit: 1,
        clickLimitUrl: 'https://example.com/sold-out',
      })
    ).json();
    const path = codeOf(link.campaignUrl);
    expect((await visit(path)).headers.location).toBe('https://example.com/offer');
    const past = await visit(path);
    expect(past.statusCode).toBe(302);
    expect(past.headers.location).toBe('https://example.com/sold-out');
  });

  it('sends clicks on an expired link to expiredUrl instead of the 410 page', async () => {
    const link = await svc.createLink(acme, {
      url: 'https://example.com/summer-sale',
      expiresAt: new Date(Date.now() - 60_000),
      expiredUrl: 'https://example.com/sale-over',
    });
    const res = await visit(codeOf(link.shortUrl));
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('https://example.com/sale-over');
    const plain = await svc.createLink(acme, {
      url: 'https://example.com/x',
      expiresAt: new Date(Date.now() - 60_000),
    });
    expect((await visit(codeOf(plain.shortUrl))).statusCode).toBe(410);
  });

  it('refuses a limit under 1 or not whole', async () => {
    for (const clickLimit of [0, 1.5]) {
      const refused = expectError(await api('POST', '/urls', { url: 'https://example.com/x', clickLimit }), 400);
      expect(refused.details?.map((d) => d.field)).toEqual(['clickLimit']);
    }
  });
});
