// Short URLs many at a time, as an API client sees it: bulk create (each item answered, the valid
// ones created), bulk change and delete by id, the CSV export with the list's filters, and the CSV
// import with its per-row errors. Tenants stay apart throughout.
import { beforeAll, describe, expect, it } from 'vitest';
import { parseCsv } from '../src/shared/csv.js';
import { expectError } from './support/error-body.js';
import { serviceForFile } from './support/service.js';

const BASE = 'https://sgnp.example';
const svc = serviceForFile({ PUBLIC_BASE_URL: BASE });
let acme: { id: number; apiKey: string };
let rival: { id: number; apiKey: string };

beforeAll(async () => {
  acme = await svc.createOrganization('Acme', 'FREE');
  rival = await svc.createOrganization('Rival', 'FREE');
});

const api = (method: string, url: string, body?: unknown, apiKey = acme.apiKey) =>
  svc.service(method, url, apiKey, body);

const importCsv = (csv: string, apiKey = acme.apiKey) =>
  svc.inject({
    method: 'POST',
    url: '/api/v1/service/urls/import',
    headers: { 'x-api-key': apiKey, 'content-type': 'text/csv' },
    payload: csv,
  });

describe('POST /urls/bulk', () => {
  it('creates the valid items and answers each in order, refusals included', async () => {
    await api('POST', '/urls', { url: 'https://example.com/taken', customAlias: 'bulk-taken' });
    const res = await api('POST', '/urls/bulk', {
      items: [
        { url: 'https://example.com/1', customAlias: 'bulk-one', tags: ['bulk'] },
        { url: 'http://example.com/2' },
        { url: 'https://example.com/3', customAlias: 'bulk-taken' },
        { url: 'https://example.com/4', tags: ['bulk', 'second'] },
        { url: 'https://example.com/5', customAlias: 'bulk-one' },
        { url: 'https://example.com/6', customAlias: 'docs' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const { results } = res.json();
    expect(results).toHaveLength(6);
    expect(results[0]).toMatchObject({ shortCode: 'bulk-one', tags: ['bulk'], shortUrl: `${BASE}/bulk-one` });
    expect(results[1]).toEqual({ error: { status: 400, message: 'items.1.url: must start with https://' } });
    expect(results[2].error.status).toBe(409);
    expect(results[3]).toMatchObject({ originalUrl: 'https://example.com/4', tags: ['bulk', 'second'] });
    expect(results[4].error).toMatchObject({ status: 409 });
    expect(results[5].error).toMatchObject({ status: 400 });
    expect(results[5].error.message).toContain('docs');
    // What was created is there, and resolves.
    const listed = (await api('GET', '/urls?tag=bulk')).json().content;
    expect(listed.map((u: { originalUrl: string }) => u.originalUrl).sort()).toEqual([
      'https://example.com/1',
      'https://example.com/4',
    ]);
    const click = await svc.inject({ method: 'GET', url: '/bulk-one', headers: { host: 'sgnp.example' } });
    expect(click.headers.location).toBe('https://example.com/1');
  });

  it('refuses an empty list and more than 1,000 items as a whole', async () => {
    const empty = expectError(await api('POST', '/urls/bulk', { items: [] }), 400);
    expect(empty.details?.map((d) => d.field)).toEqual(['items']);
    const items = Array.from({ length: 1001 }, (_, i) => ({ url: `https://example.com/${i}` }));
    expectError(await api('POST', '/urls/bulk', { items }), 400, { field: 'items' });
  });

  it('creates a thousand links in one call', async () => {
    const items = Array.from({ length: 1000 }, (_, i) => ({ url: `https://example.com/many/${i}`, tags: ['many'] }));
    const res = await api('POST', '/urls/bulk', { items });
    expect(res.statusCode).toBe(200);
    const results = res.json().results as Array<{ shortCode?: string; error?: unknown }>;
    expect(results.filter((r) => r.error)).toEqual([]);
    expect(new Set(results.map((r) => r.shortCode)).size).toBe(1000);
    expect((await api('GET', '/urls?tag=many&size=1')).json().totalElements).toBe(1000);
  }, 60_000);
});

describe('PATCH and DELETE /urls/bulk', () => {
  it('tags, archives, dates and deletes many links, answering each id', async () => {
    const ids: number[] = [];
    for (const n of [1, 2, 3]) {
      ids.push((await api('POST', '/urls', { url: `https://example.com/b${n}`, tags: ['old'] })).json().id);
    }
    const foreign = (await api('POST', '/urls', { url: 'https://example.com/theirs' }, rival.apiKey)).json().id;

    const tagged = await api('PATCH', '/urls/bulk', {
      ids: [...ids, foreign],
      addTags: ['Summer', 'promo'],
      removeTags: ['old'],
      expirationDate: '2099-12-31',
    });
    expect(tagged.statusCode, tagged.body).toBe(200);
    const results = tagged.json().results;
    for (const r of results.slice(0, 3)) {
      expect(r.tags).toEqual(['promo', 'Summer']);
      expect(r.expiresAt).toMatch(/^2099-12-31T/);
    }
    expect(results[3]).toEqual({ id: foreign, error: { status: 404, message: `short URL ${foreign} does not exist` } });
    // The other organization's link is untouched.
    expect((await api('GET', `/urls/${foreign}`, undefined, rival.apiKey)).json()).toMatchObject({
      tags: [],
      expiresAt: null,
    });

    const archived = await api('PATCH', '/urls/bulk', { ids: ids.slice(0, 2), archived: true, expirationDate: null });
    expect(
      archived.json().results.map((r: { archived: boolean; expiresAt: null }) => [r.archived, r.expiresAt]),
    ).toEqual([
      [true, null],
      [true, null],
    ]);
    expect((await api('GET', '/urls?archived=true&tag=promo')).json().totalElements).toBe(2);

    const deleted = await api('DELETE', '/urls/bulk', { ids: [ids[0], foreign] });
    expect(deleted.json().results).toEqual([
      { id: ids[0], deleted: true },
      { id: foreign, error: { status: 404, message: `short URL ${foreign} does not exist` } },
    ]);
    expect((await api('GET', `/urls/${ids[0]}`)).statusCode).toBe(404);
    expect((await api('GET', `/urls/${foreign}`, undefined, rival.apiKey)).statusCode).toBe(200);
  });

  it('refuses a past expiry and an id named twice', async () => {
    expectError(await api('PATCH', '/urls/bulk', { ids: [1], expirationDate: '2001-01-01' }), 400, {
      field: 'expirationDate',
    });
    expectError(await api('DELETE', '/urls/bulk', { ids: [1, 1] }), 400, { field: 'ids' });
  });
});

describe('CSV', () => {
  it('exports the links the filters match, one row per link after the header', async () => {
    await api('POST', '/urls', { url: 'https://example.com/export-a', tags: ['export'], title: '=SUM(A1), "quoted"' });
    await api('POST', '/urls', { url: 'https://example.com/export-b', tags: ['export', 'x'] });
    const res = await svc.inject({
      method: 'GET',
      url: '/api/v1/service/urls/export?tag=export',
      headers: { 'x-api-key': acme.apiKey },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toContain('short-urls.csv');
    const [header, ...rows] = parseCsv(res.body);
    expect(header).toEqual(expect.arrayContaining(['shortUrl', 'originalUrl', 'tags', 'clickCount']));
    const column = (name: string) => rows.map((r) => r[header!.indexOf(name)]);
    expect(column('originalUrl')).toEqual(['https://example.com/export-b', 'https://example.com/export-a']);
    expect(column('tags')).toEqual(['export|x', 'export']);
    // A formula-like cell is kept as text.
    expect(column('title')).toEqual(['', `'=SUM(A1), "quoted"`]);
    for (const shortUrl of column('shortUrl')) expect(shortUrl).toMatch(/^https:\/\/sgnp\.example\/[A-Za-z0-9_-]+$/);

    const campaigns = await svc.inject({
      method: 'GET',
      url: '/api/v1/service/campaigns/export',
      headers: { 'x-api-key': rival.apiKey },
    });
    expect(parseCsv(campaigns.body)).toHaveLength(1);
  });

  it('imports every valid row and names each refused row', async () => {
    const csv = [
      'long_url,customAlias,title,tags,expirationDate,ignored',
      'https://example.com/i1,import-one,"First, with a comma",a|b,2099-01-31,x',
      'ftp://example.com/bad,,,,,',
      'https://example.com/i3,,Third,,,',
      'https://example.com/i4,import-one,,,,',
      'https://example.com/i5,,,,1999-01-01,',
    ].join('\r\n');
    const res = await importCsv(csv);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ created: 2, failed: 3 });
    expect(body.errors.map((e: { row: number }) => e.row)).toEqual([2, 4, 5]);
    expect(body.errors[0].message).toBe('row 2: url: must start with https://');
    expect(body.errors[1].message).toContain('import-one');
    expect(body.errors[2].message).toContain('expirationDate');
    const one = (await api('GET', '/urls?tag=a')).json().content[0];
    expect(one).toMatchObject({ shortCode: 'import-one', title: 'First, with a comma', tags: ['a', 'b'] });
    expect(one.expiresAt).toMatch(/^2099-01-3/);
  });

  it('refuses a file without a URL column, without rows, or of more than 10,000 rows (naming the import job)', async () => {
    expectError(await importCsv('title\nHello\n'), 400, { code: 'VALIDATION_FAILED' });
    expectError(await importCsv('url\n'), 400);
    const big = ['url', ...Array.from({ length: 10_001 }, (_, i) => `https://example.com/${i}`)].join('\n');
    const refused = expectError(await importCsv(big), 400);
    expect(refused.message).toContain('has 10,001 rows; at most 10,000 in one call');
    expect(refused.message).toContain('as a background job with POST /imports/csv');
    const huge = `url\n${`https://example.com/${'x'.repeat(1000)}\n`.repeat(17_000)}`;
    const tooLarge = expectError(await importCsv(huge), 413, { code: 'BODY_TOO_LARGE' });
    expect(tooLarge.message).toContain('larger than 16 MB, the most one call takes: import it as a background job');
  });
});

describe('Idempotency-Key on creates', () => {
  const withKey = (url: string, body: unknown, key: string, apiKey = acme.apiKey) =>
    svc.service('POST', url, apiKey, body, { headers: { 'idempotency-key': key } });

  it('answers a retry with the first result instead of creating again', async () => {
    const body = { url: 'https://example.com/once', tags: ['once'] };
    const first = await withKey('/urls', body, 'order-4711');
    expect(first.statusCode, first.body).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const retry = await withKey('/urls', body, 'order-4711');
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    expect((await api('GET', '/urls?tag=once')).json().totalElements).toBe(1);
    // The same key of another organization is its own.
    const theirs = await withKey('/urls', body, 'order-4711', rival.apiKey);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.json().id).not.toBe(first.json().id);
  });

  it('refuses the same key with another body (422), and a malformed key (400)', async () => {
    await withKey('/urls', { url: 'https://example.com/k1' }, 'reused-key');
    expectError(await withKey('/urls', { url: 'https://example.com/k2' }, 'reused-key'), 422, {
      code: 'IDEMPOTENCY_KEY_REUSED',
    });
    const bad = expectError(await withKey('/urls', { url: 'https://example.com/k3' }, 'with space'), 400);
    expect(bad.details).toEqual([{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }]);
  });

  it('does not keep a refused create: the retry runs again', async () => {
    const refused = await withKey('/urls', { url: 'https://example.com/r', customAlias: 'bulk-one' }, 'retry-me');
    expect(refused.statusCode).toBe(409);
    const again = await withKey('/urls', { url: 'https://example.com/r', customAlias: 'bulk-one' }, 'retry-me');
    expect(again.statusCode).toBe(409);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
  });

  it('covers bulk creates and campaigns', async () => {
    const items = { items: [{ url: 'https://example.com/bulk-once-1' }, { url: 'https://example.com/bulk-once-2' }] };
    const first = await withKey('/urls/bulk', items, 'bulk-7');
    const retry = await withKey('/urls/bulk', items, 'bulk-7');
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(retry.json()).toEqual(first.json());
    const campaign = { name: 'Once', originalUrl: 'https://example.com/c' };
    const c1 = await withKey('/campaigns', campaign, 'camp-1');
    const c2 = await withKey('/campaigns', campaign, 'camp-1');
    expect(c2.json().id).toBe(c1.json().id);
    expect(c2.headers['idempotent-replayed']).toBe('true');
  });
});
