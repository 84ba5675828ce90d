// Routing rules and A/B tests as an API user and visitors see them (contract: "Routing rules and
// A/B tests"): short URLs and campaigns carry routingRules and variants; refused values answer 400
// naming the field (regions and cities too, on the bundled country-only geo database); clicks go by
// country (of the client address, the forwarded one behind a trusted proxy), language, device, OS,
// browser, referrer, query and time, the first matching rule winning, else to a sticky
// variant; a phone with the link's app still gets the landing page; destinationStats counts clicks
// per destination.
import { beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { UA as SUPPORT_UA } from './support/deep-links.js';
import { NO_CONVERSIONS } from './support/destination-stats.js';
import { expectError } from './support/error-body.js';
import { rawRequest } from './support/raw-http.js';
import { eventually, serviceForFile } from './support/service.js';

const HOST = 'sgnp.example';
const KR = '211.234.10.1';
const JP = '133.242.0.1';
const US = '8.8.8.8';
const UA = {
  iPhone: SUPPORT_UA.iPhone,
  android: SUPPORT_UA.pixel,
  windows: SUPPORT_UA.desktop,
  iPad: 'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
  mac: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_4) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
  linux: 'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:126.0) Gecko/20100101 Firefox/126.0',
} as const;

// Loopback is a trusted proxy: its X-Forwarded-For names the client (the real-port test below).
const svc = serviceForFile({ PUBLIC_BASE_URL: `https://${HOST}`, HOST: '127.0.0.1', TRUST_PROXY: 'loopback' });
let org: { id: number; apiKey: string };

beforeAll(async () => {
  org = await svc.createOrganization('Routing', 'PRO');
});

const api = (method: string, url: string, body?: unknown) => svc.service(method, url, org.apiKey, body);

interface Visitor {
  ip?: string;
  ua?: string;
  language?: string;
  referrer?: string;
}

/** A visitor's click: where it was sent (Location), '' for none. */
async function clickTo(path: string, v: Visitor = {}): Promise<string> {
  const res = await svc.inject({
    method: 'GET',
    url: path,
    remoteAddress: v.ip ?? US,
    headers: {
      host: HOST,
      'user-agent': v.ua ?? UA.windows,
      'accept-language': v.language ?? 'en-US,en;q=0.9',
      ...(v.referrer === undefined ? {} : { referer: v.referrer }),
    },
  });
  expect(res.statusCode, res.body).toBe(302);
  return String(res.headers.location ?? '');
}

const pathOf = (address: string) => new URL(address).pathname;

async function createUrl(body: Record<string, unknown>) {
  const res = await api('POST', '/urls', body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: number; shortUrl: string; routingRules: unknown[]; variants: unknown[] };
}

describe(`routing fields on records (${backend})`, () => {
  it('are [] when none, and round-trip on create, get, list and update of short URLs', async () => {
    const plain = await createUrl({ url: 'https://shop.example/plain' });
    expect(plain).toMatchObject({ routingRules: [], variants: [] });

    const routingRules = [
      {
        conditions: {
          countries: ['KR', 'jp'],
          deviceTypes: ['mobile'],
          os: ['ios', 'android'],
          languages: ['ko'],
          after: '2020-01-01T00:00:00Z',
          before: '2100-01-01T00:00:00+09:00',
          query: { ref: 'mail' },
        },
        url: 'https://shop.example/ko',
      },
      { conditions: {}, url: 'https://shop.example/all' },
    ];
    const variants = [
      { url: 'https://shop.example/a', weight: 50 },
      { url: 'https://shop.example/b', weight: 50 },
    ];
    const link = await createUrl({ url: 'https://shop.example/', routingRules, variants });
    expect(link).toMatchObject({ routingRules, variants });
    expect((await api('GET', `/urls/${link.id}`)).json()).toMatchObject({ routingRules, variants });
    const listed = (await api('GET', '/urls?size=100')).json().content.find((u: { id: number }) => u.id === link.id);
    expect(listed).toMatchObject({ routingRules, variants });

    const updated = await api('PUT', `/urls/${link.id}`, { routingRules: [routingRules[1]] });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json()).toMatchObject({ routingRules: [routingRules[1]], variants });
    const cleared = await api('PUT', `/urls/${link.id}`, { routingRules: [], variants: [] });
    expect(cleared.json()).toMatchObject({ routingRules: [], variants: [] });
  });

  it('round-trip on campaigns too', async () => {
    const routingRules = [{ conditions: { countries: ['KR'] }, url: 'https://shop.example/kr' }];
    const variants = [
      { url: 'https://shop.example/a', weight: 30 },
      { url: 'https://shop.example/b', weight: 70 },
    ];
    const res = await api('POST', '/campaigns', { name: 'Routed', originalUrl: 'https://shop.example/', routingRules });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ routingRules, variants: [] });
    const id = res.json().id;
    const updated = await api('PUT', `/campaigns/${id}`, { variants });
    expect(updated.json()).toMatchObject({ routingRules, variants });
    expect((await api('GET', `/campaigns/${id}`)).json()).toMatchObject({ routingRules, variants });
  });
});

describe(`validation (${backend})`, () => {
  const rule = (conditions: unknown, url = 'https://shop.example/r') => ({ conditions, url });
  /** Variants from [path or URL, weight] pairs. */
  const split = (...pairs: Array<[string, number]>) =>
    pairs.map(([to, weight]) => ({ url: to.startsWith('https://') ? to : `https://shop.example/${to}`, weight }));
  /** A body whose one rule has `values` as its condition `name`, and the field refused (`at`: an index). */
  const oneCondition = (name: string, values: unknown, at = ''): [Record<string, unknown>, string] => [
    { routingRules: [rule({ [name]: values })] },
    `routingRules.0.conditions.${name}${at}`,
  ];
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['an unknown browser', ...oneCondition('browsers', ['Chrome', 'Netscape'], '.1')],
    ['an empty browser list', ...oneCondition('browsers', [])],
    ['a referrer with a scheme', ...oneCondition('referrers', ['https://t.co'], '.0')],
    ['a referrer with a path', ...oneCondition('referrers', ['t.co', 'twitter.com/home'], '.1')],
    [
      'a referrer in upper case, with a port, or of one label',
      ...oneCondition('referrers', ['Twitter.com', 't.co:443', 'localhost'], '.0'),
    ],
    [
      'more than 50 referrers',
      ...oneCondition(
        'referrers',
        Array.from({ length: 51 }, (_, n) => `h${n}.example`),
      ),
    ],
    ['a region that is no ISO 3166-2 code, or of no country', ...oneCondition('regions', ['Seoul', 'XX-11'], '.1')],
    ['an empty city', ...oneCondition('cities', [' '], '.0')],
    ['an unknown condition', { routingRules: [rule({ city: ['Seoul'] })] }, 'routingRules.0.conditions'],
    [
      'an unknown country',
      { routingRules: [rule({ countries: ['KR', 'XX'] })] },
      'routingRules.0.conditions.countries.1',
    ],
    [
      'an unknown device type',
      { routingRules: [rule({ deviceTypes: ['watch'] })] },
      'routingRules.0.conditions.deviceTypes.0',
    ],
    ['an unknown OS', { routingRules: [rule({ os: ['beos'] })] }, 'routingRules.0.conditions.os.0'],
    [
      'a language that is no subtag',
      { routingRules: [rule({ languages: ['ko-KR'] })] },
      'routingRules.0.conditions.languages.0',
    ],
    ['a date that is no instant', { routingRules: [rule({ after: '2026-01-01' })] }, 'routingRules.0.conditions.after'],
    [
      'a query value that is no string',
      { routingRules: [rule({ query: { ref: 1 } })] },
      'routingRules.0.conditions.query.ref',
    ],
    ['a non-https destination', { routingRules: [rule({}, 'ftp://shop.example/')] }, 'routingRules.0.url'],
    ['a private destination', { routingRules: [rule({}), rule({}, 'https://10.0.0.1/')] }, 'routingRules.1.url'],
    ['more than 50 rules', { routingRules: Array.from({ length: 51 }, () => rule({})) }, 'routingRules'],
    ['one variant', { variants: [{ url: 'https://shop.example/a', weight: 100 }] }, 'variants'],
    ['weights not summing to 100', { variants: split(['a', 50], ['b', 40]) }, 'variants'],
    ['a weight that is no integer', { variants: split(['a', 50.5], ['b', 49.5]) }, 'variants.0.weight'],
    ['a private variant', { variants: split(['a', 50], ['https://192.168.1.1/b', 50]) }, 'variants.1.url'],
    [
      'more than 10 variants',
      { variants: Array.from({ length: 11 }, (_, n) => ({ url: `https://shop.example/${n}`, weight: n ? 9 : 10 })) },
      'variants',
    ],
  ];

  /** The answers to creating a short URL and a campaign with `fields`. */
  const createBoth = async (fields: Record<string, unknown>) => [
    await api('POST', '/urls', { url: 'https://shop.example/', ...fields }),
    await api('POST', '/campaigns', { name: 'Refused', originalUrl: 'https://shop.example/', ...fields }),
  ];

  it.each(cases)('refuses %s with 400 naming the field', async (_, fields, field) => {
    for (const res of await createBoth(fields)) {
      expectError(res, 400);
      expect(res.json().details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it('refuses regions and cities the geo database cannot tell (the bundled one is country-only), saying why', async () => {
    for (const [conditions, field, says] of [
      [{ regions: ['KR-11'] }, 'routingRules.1.conditions.regions', 'no ISO 3166-2 region codes'],
      [{ cities: ['Seoul'] }, 'routingRules.1.conditions.cities', 'no cities'],
    ] as const) {
      const fields = { routingRules: [rule({ countries: ['KR'] }), rule(conditions)] };
      for (const res of await createBoth(fields)) {
        expectError(res, 400);
        expect(res.json().details).toEqual([expect.objectContaining({ field })]);
        expect(res.json().message).toContain(says);
        expect(res.json().message).toContain('GEOIP_DB');
      }
      const link = await createUrl({ url: 'https://shop.example/' });
      const res = await api('PUT', `/urls/${link.id}`, fields);
      expectError(res, 400);
      expect(res.json().details).toEqual([expect.objectContaining({ field })]);
    }
  });

  it('refuses on update too, and leaves the link as it was', async () => {
    const link = await createUrl({ url: 'https://shop.example/' });
    const res = await api('PUT', `/urls/${link.id}`, { routingRules: [rule({ os: ['amiga'] })] });
    expectError(res, 400);
    expect(res.json().details.map((d: { field: string }) => d.field)).toEqual(['routingRules.0.conditions.os.0']);
    expect((await api('GET', `/urls/${link.id}`)).json().routingRules).toEqual([]);
  });
});

describe(`redirects (${backend})`, () => {
  it('follow each condition, the first matching rule winning, with the UTM parameters of the link', async () => {
    const link = await createUrl({
      url: 'https://shop.example/home',
      utmSource: 'news',
      routingRules: [
        { conditions: { countries: ['kr'], languages: ['ko'] }, url: 'https://shop.example/kr-ko' },
        { conditions: { countries: ['KR'] }, url: 'https://shop.example/kr' },
        { conditions: { languages: ['ja'] }, url: 'https://shop.example/ja' },
        { conditions: { deviceTypes: ['tablet'] }, url: 'https://shop.example/tablet' },
        { conditions: { os: ['android'] }, url: 'https://shop.example/android' },
        { conditions: { os: ['macos'] }, url: 'https://shop.example/mac' },
        { conditions: { os: ['linux'] }, url: 'https://shop.example/linux' },
        { conditions: { query: { ref: 'mail' } }, url: 'https://shop.example/mail' },
        { conditions: { after: '2100-01-01T00:00:00Z' }, url: 'https://shop.example/future' },
        { conditions: { before: '2000-01-01T00:00:00Z' }, url: 'https://shop.example/past' },
        {
          conditions: {
            after: '2000-01-01T00:00:00Z',
            before: '2100-01-01T00:00:00Z',
            os: ['windows'],
            deviceTypes: ['desktop'],
          },
          url: 'https://shop.example/now',
        },
      ],
    });
    const path = pathOf(link.shortUrl);
    const to = async (v: Visitor, query = '') => {
      const location = new URL(await clickTo(`${path}${query}`, v));
      expect(location.searchParams.get('utm_source')).toBe('news');
      return location.pathname;
    };
    expect(await to({ ip: KR, language: 'ko-KR,ko;q=0.9' })).toBe('/kr-ko');
    expect(await to({ ip: KR, language: 'en-US,ko;q=0.9' })).toBe('/kr');
    expect(await to({ ip: JP, language: 'JA' })).toBe('/ja');
    expect(await to({ ip: US, ua: UA.iPad })).toBe('/tablet');
    expect(await to({ ip: US, ua: UA.android })).toBe('/android');
    expect(await to({ ip: US, ua: UA.mac })).toBe('/mac');
    expect(await to({ ip: US, ua: UA.linux })).toBe('/linux');
    expect(await to({ ip: US, ua: UA.iPhone }, '?ref=mail')).toBe('/mail');
    expect(await to({ ip: US, ua: UA.windows })).toBe('/now');
    // Nothing matches: the original.
    expect(await to({ ip: US, ua: UA.iPhone })).toBe('/home');
  });

  it('follow the browser family and the referrer host (itself or a subdomain)', async () => {
    const link = await createUrl({
      url: 'https://shop.example/home',
      routingRules: [
        { conditions: { referrers: ['t.co', 'twitter.com'] }, url: 'https://shop.example/twitter' },
        { conditions: { browsers: ['samsung internet'] }, url: 'https://shop.example/samsung' },
        { conditions: { browsers: ['Safari'], deviceTypes: ['mobile'] }, url: 'https://shop.example/mobile-safari' },
        { conditions: { browsers: ['Firefox'] }, url: 'https://shop.example/firefox' },
      ],
    });
    const path = pathOf(link.shortUrl);
    const to = async (v: Visitor) => pathOf(await clickTo(path, v));
    const samsung =
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0 Mobile Safari/537.36';
    expect(await to({ referrer: 'https://t.co/Ab1' })).toBe('/twitter');
    expect(await to({ referrer: 'https://mobile.twitter.com/someone/status/1', ua: samsung })).toBe('/twitter');
    expect(await to({ referrer: 'https://nottwitter.com/' })).toBe('/home');
    expect(await to({ ua: samsung })).toBe('/samsung');
    // ua-parser names iPhone Safari "Mobile Safari": the family is Safari.
    expect(await to({ ua: UA.iPhone })).toBe('/mobile-safari');
    expect(await to({ ua: UA.mac })).toBe('/home');
    expect(await to({ ua: UA.linux })).toBe('/firefox');
  });

  it('split the clicks no rule caught between variants, the same visitor always to the same one', async () => {
    const link = await createUrl({
      url: 'https://shop.example/original',
      routingRules: [{ conditions: { countries: ['KR'] }, url: 'https://shop.example/kr' }],
      variants: [
        { url: 'https://shop.example/a', weight: 50 },
        { url: 'https://shop.example/b', weight: 50 },
      ],
    });
    const path = pathOf(link.shortUrl);
    expect(pathOf(await clickTo(path, { ip: KR }))).toBe('/kr');

    const visitor = { ip: '93.184.216.34', ua: UA.mac };
    const first = pathOf(await clickTo(path, visitor));
    for (let n = 0; n < 5; n++) expect(pathOf(await clickTo(path, visitor))).toBe(first);

    const counts = { '/a': 0, '/b': 0 } as Record<string, number>;
    for (let n = 0; n < 200; n++) {
      const to = pathOf(await clickTo(path, { ip: `198.51.${n >> 8}.${n & 255}`, ua: `${UA.windows} v${n % 3}` }));
      counts[to] = (counts[to] ?? 0) + 1;
    }
    expect(Object.keys(counts).sort()).toEqual(['/a', '/b']);
    expect(counts['/a']).toBeGreaterThan(70);
    expect(counts['/b']).toBeGreaterThan(70);
  });

  it('route campaign clicks the same way', async () => {
    const res = await api('POST', '/campaigns', {
      name: 'Campaign routed',
      originalUrl: 'https://shop.example/campaign',
      routingRules: [{ conditions: { languages: ['ko'] }, url: 'https://shop.example/campaign-ko' }],
    });
    const path = pathOf(res.json().campaignUrl);
    expect(pathOf(await clickTo(path, { language: 'ko' }))).toBe('/campaign-ko');
    expect(pathOf(await clickTo(path, { language: 'en' }))).toBe('/campaign');
  });

  it('give a phone with the linked app the landing page, whose web fallback follows the rules', async () => {
    const app = await svc.createApp(org, {
      platform: 'IOS',
      appName: 'Shop',
      bundleId: 'com.example.shop.routing',
      teamId: 'ABCDE12345',
      scheme: 'shoprouting',
      storeUrl: 'https://apps.apple.com/app/id1',
    });
    const link = await createUrl({
      url: 'https://shop.example/app-home',
      iosAppId: app.id,
      routingRules: [{ conditions: { countries: ['KR'] }, url: 'https://shop.example/app-kr' }],
    });
    const res = await svc.inject({
      method: 'GET',
      url: pathOf(link.shortUrl),
      remoteAddress: KR,
      headers: { host: HOST, 'user-agent': UA.iPhone, 'accept-language': 'ko' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('https://shop.example/app-kr');
    // A desktop in Korea goes by the rule.
    expect(pathOf(await clickTo(pathOf(link.shortUrl), { ip: KR }))).toBe('/app-kr');
  });

  it('read the forwarded address behind a trusted proxy, on the fast path too', async () => {
    const link = await createUrl({
      url: 'https://shop.example/fast',
      routingRules: [{ conditions: { countries: ['JP'] }, url: 'https://shop.example/fast-jp' }],
    });
    const port = Number(new URL(await svc.container.listen()).port);
    const path = pathOf(link.shortUrl);
    const headers = (ip: string) => ({ host: HOST, 'user-agent': UA.windows, 'x-forwarded-for': ip });
    // A first look puts the link in the cache: the fast path answers cache hits.
    await rawRequest(port, 'HEAD', path, headers(US));
    expect((await rawRequest(port, 'GET', path, headers(JP))).headers.location).toBe('https://shop.example/fast-jp');
    expect((await rawRequest(port, 'GET', path, headers(US))).headers.location).toBe('https://shop.example/fast');
  });
});

describe(`destinationStats (${backend})`, () => {
  it('count the clicks of the period by destination, the original included', async () => {
    const link = await createUrl({
      url: 'https://shop.example/stats',
      routingRules: [{ conditions: { countries: ['KR'] }, url: 'https://shop.example/stats-kr' }],
    });
    const path = pathOf(link.shortUrl);
    await clickTo(path, { ip: KR });
    await clickTo(path, { ip: KR, ua: UA.mac });
    await clickTo(path, { ip: US });
    await clickTo(path, { ip: JP });
    await svc.container.events.flush();
    const stats = await eventually(async () => {
      const body = (await api('GET', `/urls/${link.id}/stats`)).json();
      return body.chartData?.reduce((a: number, b: number) => a + b, 0) === 4 ? body : undefined;
    }, 20_000);
    expect(stats.destinationStats).toEqual([
      { url: 'https://shop.example/stats', count: 2, percentage: 50, ...NO_CONVERSIONS },
      { url: 'https://shop.example/stats-kr', count: 2, percentage: 50, ...NO_CONVERSIONS },
    ]);
    const rows = await svc.clickhouse<{ route: string; destination_url: string }>(
      `SELECT route, destination_url FROM clicks WHERE organization_id = {org:UInt64} AND link_id = {id:UInt64} ORDER BY route`,
      { org: org.id, id: link.id },
    );
    expect(rows.map((r) => r.route)).toEqual(['original', 'original', 'rule:0', 'rule:0']);
  });

  it('count clicks of links without routing, and of campaign variants', async () => {
    const plain = await createUrl({ url: 'https://shop.example/plain-stats' });
    await clickTo(pathOf(plain.shortUrl));
    const res = await api('POST', '/campaigns', {
      name: 'Split stats',
      originalUrl: 'https://shop.example/split',
      variants: [
        { url: 'https://shop.example/split-a', weight: 50 },
        { url: 'https://shop.example/split-b', weight: 50 },
      ],
    });
    const campaign = res.json();
    const seen = new Map<string, number>();
    for (let n = 0; n < 10; n++) {
      const to = await clickTo(pathOf(campaign.campaignUrl), { ip: `198.51.100.${n + 1}` });
      seen.set(to, (seen.get(to) ?? 0) + 1);
    }
    await svc.container.events.flush();
    const plainStats = await eventually(async () => {
      const body = (await api('GET', `/urls/${plain.id}/stats`)).json();
      return body.destinationStats?.length ? body : undefined;
    }, 20_000);
    expect(plainStats.destinationStats).toEqual([
      { url: 'https://shop.example/plain-stats', count: 1, percentage: 100, ...NO_CONVERSIONS },
    ]);
    const campaignStats = await eventually(async () => {
      const body = (await api('GET', `/campaigns/${campaign.id}/stats`)).json();
      return body.totalClicks === 10 ? body : undefined;
    }, 20_000);
    const expected = [...seen]
      .map(([url, count]) => ({ url, count, percentage: count * 10, ...NO_CONVERSIONS }))
      .sort((a, b) => b.count - a.count || a.url.localeCompare(b.url));
    expect(campaignStats.destinationStats).toEqual(expected);
  });
});
