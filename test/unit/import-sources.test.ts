// The pure parts of imports: each source's mapping of a link as its API shows it (rendered by the
// same fixtures the integration test serves), how an answer's status and headers become a refusal,
// a rate limit or a failure, and the address guard with the insecure setting off.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedGet } from '../../src/core/imports/guarded-get.js';
import {
  type ImportedLink,
  type SourceFailed,
  type SourceName,
  SourceRateLimited,
  SourceRefused,
} from '../../src/core/imports/import-source.js';
import { codeOf, parseDate, readJson, retryAfterMs } from '../../src/core/imports/source-answer.js';
import { type Bitlink, mapBitlink } from '../../src/core/imports/sources/bitly.js';
import { type DubLink, mapDubLink } from '../../src/core/imports/sources/dub.js';
import { type KuttLink, mapKuttLink } from '../../src/core/imports/sources/kutt.js';
import { mapRebrandlyLink, type RebrandlyLink } from '../../src/core/imports/sources/rebrandly.js';
import { mapShlinkShortUrl, type ShlinkShortUrl } from '../../src/core/imports/sources/shlink.js';
import { mapYourlsLink, type YourlsLink } from '../../src/core/imports/sources/yourls.js';
import { SOURCE_FIXTURES, type SampleLink } from '../support/import-fixtures.js';

const SAMPLE: SampleLink = {
  id: '7',
  code: 'spring-sale',
  url: 'https://shop.example/sale?x=1',
  title: 'Spring sale',
  tags: ['launch', 'q3'],
  expiresAt: '2031-01-02T03:04:05.000Z',
  maxVisits: 100,
  createdAt: '2024-01-02T03:04:05.000Z',
};

const EXPIRES = new Date(SAMPLE.expiresAt!);
const CREATED = new Date(SAMPLE.createdAt);
const render = (source: SourceName) => SOURCE_FIXTURES[source].render(SAMPLE);

const CASES: [SourceName, ImportedLink | undefined][] = [
  // Bitly: the custom back-half is the alias; the bitlink's own id identifies it.
  ['bitly', mapBitlink(render('bitly') as Bitlink)],
  ['shlink', mapShlinkShortUrl(render('shlink') as ShlinkShortUrl)],
  ['kutt', mapKuttLink(render('kutt') as KuttLink)],
  ['yourls', mapYourlsLink(render('yourls') as YourlsLink)],
  ['dub', mapDubLink(render('dub') as DubLink)],
  ['rebrandly', mapRebrandlyLink(render('rebrandly') as RebrandlyLink)],
];

/** What every source carries over; each adds what its API has besides. */
const COMMON = { originalUrl: SAMPLE.url, customAlias: 'spring-sale', title: 'Spring sale', createdAt: CREATED };
const TAGS = ['launch', 'q3'];

const EXPECTED: Record<SourceName, ImportedLink> = {
  bitly: { ...COMMON, sourceId: 'bit.ly/7', tags: TAGS, expiresAt: EXPIRES },
  shlink: { ...COMMON, sourceId: 'spring-sale', tags: TAGS, expiresAt: EXPIRES, clickLimit: 100 },
  kutt: { ...COMMON, sourceId: '0d5e-7', tags: [], expiresAt: EXPIRES },
  yourls: { ...COMMON, sourceId: 'spring-sale', tags: [] },
  dub: { ...COMMON, sourceId: 'link_7', tags: TAGS, expiresAt: EXPIRES },
  rebrandly: { ...COMMON, sourceId: 'rb7', tags: TAGS },
};

describe('mapping a link as each service shows it', () => {
  it.each(CASES)('%s: id, destination, code, title, tags, expiry, visit limit and creation', (source, mapped) => {
    expect(mapped).toEqual(EXPECTED[source]);
  });

  it('takes a Bitly link without a custom back-half by its own code', () => {
    const plain = mapBitlink({ ...(render('bitly') as Bitlink), custom_bitlinks: [] });
    expect(plain.customAlias).toBe('7');
  });

  it("carries a Dub link's password, and marks a Kutt link behind one so that it is not imported open", () => {
    const locked = { ...SAMPLE, password: true };
    const dub = mapDubLink(SOURCE_FIXTURES.dub.render(locked) as DubLink);
    expect(dub.password).toBe('hunter2');
    expect(dub.passwordProtected).toBeUndefined();
    expect(mapDubLink(SOURCE_FIXTURES.dub.render(SAMPLE) as DubLink).password).toBeUndefined();
    expect(mapKuttLink(SOURCE_FIXTURES.kutt.render(locked) as KuttLink).passwordProtected).toBe(true);
  });

  it("carries a Dub link's conversion tracking (trackConversion)", () => {
    const dub = SOURCE_FIXTURES.dub.render(SAMPLE) as DubLink;
    expect(mapDubLink({ ...dub, trackConversion: true }).conversionTracking).toBe(true);
    expect(mapDubLink(dub).conversionTracking).toBeUndefined();
  });

  it('keeps the domain in the id of a Shlink short URL on another domain', () => {
    const other = mapShlinkShortUrl({ ...(render('shlink') as ShlinkShortUrl), domain: 's.example' });
    expect(other.sourceId).toBe('s.example/spring-sale');
  });

  it('reads the date forms the services write', () => {
    expect(parseDate('2019-12-11T22:27:07+0000')?.toISOString()).toBe('2019-12-11T22:27:07.000Z');
    expect(parseDate('2024-01-02 03:04:05')?.toISOString()).toBe('2024-01-02T03:04:05.000Z');
    expect(parseDate('2024-01-02T03:04:05+09:00')?.toISOString()).toBe('2024-01-01T18:04:05.000Z');
    expect(parseDate('1776858663893')?.toISOString()).toBe('2026-04-22T11:51:03.893Z');
    expect(parseDate('1776858663')?.toISOString()).toBe('2026-04-22T11:51:03.000Z');
    expect(parseDate('soon')).toBeUndefined();
    expect(parseDate(null)).toBeUndefined();
  });

  it('finds the code in a short URL', () => {
    expect(codeOf('bit.ly/3xYz')).toBe('3xYz');
    expect(codeOf('https://sho.rt/abc/')).toBe('abc');
    expect(codeOf('https://sho.rt/')).toBeUndefined();
  });
});

describe('reading an answer', () => {
  const answer = (status: number, body: unknown, headers: Record<string, string> = {}) => ({
    status,
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const NOW = Date.parse('2026-01-01T00:00:00Z');

  it.each([
    [
      401,
      { detail: 'Provided API key does not exist or is invalid.' },
      'Provided API key does not exist or is invalid.',
    ],
    [403, { message: 'FORBIDDEN' }, 'FORBIDDEN'],
    [
      401,
      { error: { code: 'unauthorized', message: 'Unauthorized: Invalid API key.' } },
      'Unauthorized: Invalid API key.',
    ],
    [401, { error: 'Unauthorized' }, 'Unauthorized'],
  ])('a %i is a refused token, with what the service said', (status, body, said) => {
    expect(() => readJson(answer(status, body), 'Bitly')).toThrow(SourceRefused);
    expect(() => readJson(answer(status, body), 'Bitly')).toThrow(
      `the token was refused by Bitly (HTTP ${status}: ${said})`,
    );
  });

  it.each([
    [{ 'retry-after': '3' }, 3_000],
    [{ 'retry-after': 'Thu, 01 Jan 2026 00:00:10 GMT' }, 10_000],
    [{ 'x-ratelimit-reset': String(NOW / 1000 + 20) }, 20_000],
    [{ 'x-ratelimit-reset': '5' }, 5_000],
    [{}, undefined],
  ])('a 429 with %o waits %s ms', (headers, wait) => {
    expect(retryAfterMs(answer(429, '', headers), NOW)).toBe(wait);
    expect(() => readJson(answer(429, '', headers), 'Dub', NOW)).toThrow(SourceRateLimited);
  });

  it('retries a server error, not a missing page or an answer that is not JSON', () => {
    const failure = (status: number, body: unknown) => {
      try {
        readJson(answer(status, body), 'Kutt');
      } catch (err) {
        return err as SourceFailed;
      }
      throw new Error('no failure');
    };
    expect(failure(503, 'busy')).toMatchObject({ retry: true, message: 'Kutt answered HTTP 503' });
    expect(failure(404, { error: 'Not found' })).toMatchObject({
      retry: false,
      message: 'Kutt answered HTTP 404: Not found',
    });
    expect(failure(200, '<html>')).toMatchObject({ retry: false, message: 'Kutt answered something that is not JSON' });
  });
});

describe('the address guard', () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end('[]'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const resolve = async () => [{ address: '127.0.0.1', family: 4 as const }];
  const signal = AbortSignal.timeout(5_000);

  it('refuses loopback and plain HTTP when the insecure setting is off, and reaches them when it is on', async () => {
    const strict = createGuardedGet({ allowInsecure: false, resolve, timeoutMs: 2_000 });
    await expect(strict(new URL(`http://127.0.0.1:${port}/links`), {}, signal)).rejects.toThrow(
      'url must start with https://',
    );
    await expect(strict(new URL(`https://127.0.0.1:${port}/links`), {}, signal)).rejects.toThrow(
      'url points at a loopback address, which imports may not reach',
    );
    // A public-looking name that resolves to this machine is refused too.
    await expect(strict(new URL(`https://links.example:${port}/`), {}, signal)).rejects.toThrow(
      'links.example resolves to a loopback address, which imports may not reach',
    );
    const loose = createGuardedGet({ allowInsecure: true, resolve, timeoutMs: 2_000 });
    expect(await loose(new URL(`http://127.0.0.1:${port}/links`), {}, signal)).toMatchObject({
      status: 200,
      body: '[]',
    });
  });

  it('refuses a private address whatever the setting', async () => {
    const loose = createGuardedGet({ allowInsecure: true, resolve, timeoutMs: 2_000 });
    await expect(loose(new URL('https://10.0.0.8/links'), {}, signal)).rejects.toThrow(
      'url points at a private address, which imports may not reach',
    );
  });
});
