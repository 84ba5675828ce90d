// Stand-ins for the link services imports read from, on loopback: each answers its list endpoint
// in the shape, pagination, auth header and error body of the service's published API, two links a
// page so that a handful of links spans several pages. A fixture can refuse one request with 429
// and Retry-After, hold a page until the test lets it go, and counts what it was asked.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SourceName } from '../../src/core/imports/import-source.js';

/** One link as a test describes it; each fixture renders it as its service would. */
export interface SampleLink {
  id: string;
  code: string;
  url: string;
  title: string | null;
  tags: string[];
  expiresAt: string | null;
  maxVisits: number | null;
  createdAt: string;
  /** Protected by a password where the service has them (Dub, Kutt). */
  password?: boolean;
  /** Dub's conversion tracking (trackConversion). */
  trackConversion?: boolean;
}

const PER_PAGE = 2;

interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

interface SourceFixture {
  /** Whether the request carries the token where the service expects it. */
  authorized(req: http.IncomingMessage, url: URL, token: string): boolean;
  /** The service's answer to a refused token. */
  refused: Answer;
  /** Which page of links a request asks for (1-based); undefined for the other endpoints. */
  pageOf(url: URL, links: SampleLink[]): number | undefined;
  answer(url: URL, links: SampleLink[]): Answer | undefined;
  /** A link as the service's list shows it. */
  render(link: SampleLink): unknown;
}

const pageSlice = (links: SampleLink[], page: number) => links.slice((page - 1) * PER_PAGE, page * PER_PAGE);
const pagesOf = (links: SampleLink[]) => Math.ceil(links.length / PER_PAGE);
const bearer = (req: http.IncomingMessage, token: string) => req.headers.authorization === `Bearer ${token}`;

const bitly: SourceFixture = {
  authorized: (req, _url, token) => bearer(req, token),
  refused: {
    status: 403,
    body: {
      message: 'FORBIDDEN',
      resource: 'bitlinks',
      description: 'You are currently forbidden to access this resource.',
    },
  },
  pageOf: (url) => (url.pathname.endsWith('/bitlinks') ? Number(url.searchParams.get('page') ?? '1') : undefined),
  render: (l) => ({
    id: `bit.ly/${l.id}`,
    link: `https://bit.ly/${l.id}`,
    custom_bitlinks: [`https://bit.ly/${l.code}`],
    long_url: l.url,
    title: l.title,
    archived: false,
    created_at: l.createdAt.replace('Z', '+0000').replace('.000', ''),
    tags: l.tags,
    ...(l.expiresAt ? { expiration_at: l.expiresAt } : {}),
  }),
  answer(url, links) {
    if (url.pathname === '/v4/user') return { status: 200, body: { login: 'o_test', default_group_guid: 'Bg1' } };
    if (url.pathname !== '/v4/groups/Bg1/bitlinks') return undefined;
    const page = Number(url.searchParams.get('page') ?? '1');
    const next =
      page < pagesOf(links) ? `https://api-ssl.bitly.com/v4/groups/Bg1/bitlinks?page=${page + 1}&size=100` : '';
    return {
      status: 200,
      body: {
        links: pageSlice(links, page).map(bitly.render),
        pagination: { prev: '', next, size: PER_PAGE, page, total: links.length },
      },
    };
  },
};

const shlink: SourceFixture = {
  authorized: (req, _url, token) => req.headers['x-api-key'] === token,
  refused: {
    status: 401,
    headers: { 'content-type': 'application/problem+json' },
    body: {
      type: 'https://shlink.io/api/error/invalid-api-key',
      title: 'Invalid API key',
      detail: 'Provided API key does not exist or is invalid.',
      status: 401,
    },
  },
  pageOf: (url) => (url.pathname === '/rest/v3/short-urls' ? Number(url.searchParams.get('page') ?? '1') : undefined),
  render: (l) => ({
    shortCode: l.code,
    shortUrl: `https://s.test/${l.code}`,
    longUrl: l.url,
    dateCreated: l.createdAt.replace('.000Z', '+00:00'),
    tags: l.tags,
    meta: { validSince: null, validUntil: l.expiresAt, maxVisits: l.maxVisits },
    domain: null,
    title: l.title,
    crawlable: false,
    forwardQuery: true,
    visitsSummary: { total: 0, nonBots: 0, bots: 0 },
  }),
  answer(url, links) {
    if (url.pathname !== '/rest/v3/short-urls') return undefined;
    const page = Number(url.searchParams.get('page') ?? '1');
    const data = pageSlice(links, page).map(shlink.render);
    return {
      status: 200,
      body: {
        shortUrls: {
          data,
          pagination: {
            currentPage: page,
            pagesCount: pagesOf(links),
            itemsPerPage: PER_PAGE,
            itemsInCurrentPage: data.length,
            totalItems: links.length,
          },
        },
      },
    };
  },
};

const kutt: SourceFixture = {
  authorized: (req, _url, token) => req.headers['x-api-key'] === token,
  refused: { status: 401, body: { error: 'Unauthorized' } },
  pageOf: (url) =>
    url.pathname === '/api/v2/links' ? Number(url.searchParams.get('skip') ?? '0') / PER_PAGE + 1 : undefined,
  render: (l) => ({
    id: `0d5e-${l.id}`,
    address: l.code,
    banned: false,
    created_at: l.createdAt,
    updated_at: l.createdAt,
    description: l.title,
    expire_in: l.expiresAt,
    link: `https://kutt.it/${l.code}`,
    password: l.password === true,
    target: l.url,
    visit_count: 0,
    domain: null,
  }),
  answer(url, links) {
    if (url.pathname !== '/api/v2/links') return undefined;
    const skip = Number(url.searchParams.get('skip') ?? '0');
    return {
      status: 200,
      body: {
        total: links.length,
        limit: PER_PAGE,
        skip,
        data: links.slice(skip, skip + PER_PAGE).map(kutt.render),
      },
    };
  },
};

const yourls: SourceFixture = {
  authorized: (_req, url, token) => url.searchParams.get('signature') === token,
  refused: { status: 403, body: { errorCode: 403, message: 'Please log in', callback: '' } },
  pageOf: (url) =>
    url.searchParams.get('action') === 'stats'
      ? Number(url.searchParams.get('start') ?? '0') / PER_PAGE + 1
      : undefined,
  render: (l) => ({
    shorturl: `http://sho.rt/${l.code}`,
    url: l.url,
    title: l.title ?? '',
    timestamp: l.createdAt.replace('T', ' ').replace('.000Z', ''),
    ip: '203.0.113.9',
    clicks: '0',
  }),
  answer(url, links) {
    if (url.pathname !== '/yourls-api.php' || url.searchParams.get('action') !== 'stats') return undefined;
    if (url.searchParams.get('format') !== 'json' || url.searchParams.get('filter') !== 'last') return undefined;
    const start = Number(url.searchParams.get('start') ?? '0');
    const page = links.slice(start, start + PER_PAGE);
    // PHP writes an empty array as [] and a keyed one as an object.
    const keyed = page.length === 0 ? [] : Object.fromEntries(page.map((l, i) => [`link_${i + 1}`, yourls.render(l)]));
    return {
      status: 200,
      body: {
        links: keyed,
        stats: { total_links: String(links.length), total_clicks: '0' },
        statusCode: 200,
        message: 'success',
      },
    };
  },
};

const dub: SourceFixture = {
  authorized: (req, _url, token) => bearer(req, token),
  refused: {
    status: 401,
    body: {
      error: {
        code: 'unauthorized',
        message: 'Unauthorized: Invalid API key.',
        doc_url: 'https://dub.co/docs/api-reference/errors#unauthorized',
      },
    },
  },
  pageOf: (url) => (url.pathname === '/links' ? Number(url.searchParams.get('page') ?? '1') : undefined),
  render: (l) => ({
    id: `link_${l.id}`,
    domain: 'dub.sh',
    key: l.code,
    url: l.url,
    shortLink: `https://dub.sh/${l.code}`,
    archived: false,
    expiresAt: l.expiresAt,
    password: l.password ? 'hunter2' : null,
    trackConversion: l.trackConversion ?? false,
    title: l.title,
    tags: l.tags.map((name, i) => ({ id: `tag_${i}`, name, color: 'blue' })),
    createdAt: l.createdAt,
  }),
  answer(url, links) {
    if (url.pathname === '/links/count') return { status: 200, body: links.length };
    if (url.pathname !== '/links') return undefined;
    return { status: 200, body: pageSlice(links, Number(url.searchParams.get('page') ?? '1')).map(dub.render) };
  },
};

const rebrandly: SourceFixture = {
  authorized: (req, _url, token) => req.headers.apikey === token,
  refused: { status: 401, body: { code: 'Unauthorized', message: 'Unauthorized' } },
  pageOf(url, links) {
    if (url.pathname !== '/v1/links') return undefined;
    const last = url.searchParams.get('last');
    return last === null ? 1 : Math.floor((links.findIndex((l) => `rb${l.id}` === last) + 1) / PER_PAGE) + 1;
  },
  render: (l) => ({
    id: `rb${l.id}`,
    title: l.title,
    slashtag: l.code,
    destination: l.url,
    createdAt: l.createdAt,
    updatedAt: l.createdAt,
    shortUrl: `rebrand.ly/${l.code}`,
    domain: { fullName: 'rebrand.ly' },
    tags: l.tags.map((name) => ({ id: `t-${name}`, name, color: '#000' })),
  }),
  answer(url, links) {
    if (url.pathname === '/v1/links/count') return { status: 200, body: { count: links.length } };
    if (url.pathname !== '/v1/links') return undefined;
    const last = url.searchParams.get('last');
    const from = last === null ? 0 : links.findIndex((l) => `rb${l.id}` === last) + 1;
    return { status: 200, body: links.slice(from, from + PER_PAGE).map(rebrandly.render) };
  },
};

export const SOURCE_FIXTURES: Record<SourceName, SourceFixture> = { bitly, shlink, kutt, yourls, dub, rebrandly };

export interface ImportFixture {
  /** The address to give the import (http://127.0.0.1:port). */
  url: string;
  /** Every path and query asked, in order. */
  requests: string[];
  /** How many 429s it answered. */
  rateLimited: number;
  /** Answers 429 (Retry-After: 1) to the first request for this page. */
  rateLimitPage(page: number): void;
  /** Holds requests for this page until the returned function is called. */
  holdPage(page: number): () => void;
  /** Resolves once a request for this page has arrived. */
  pageAsked(page: number): Promise<void>;
  close(): Promise<void>;
}

export async function startImportFixture(
  source: SourceName,
  token: string,
  links: SampleLink[],
): Promise<ImportFixture> {
  const fixture = SOURCE_FIXTURES[source];
  const requests: string[] = [];
  let rateLimited = 0;
  const limitOnce = new Set<number>();
  const holds = new Map<number, Promise<void>>();
  const waiters = new Map<number, () => void>();
  const asked = new Map<number, Promise<void>>();
  const askedFor = (page: number) => {
    if (!asked.has(page)) asked.set(page, new Promise<void>((resolve) => waiters.set(page, resolve)));
    return asked.get(page)!;
  };

  const send = (res: http.ServerResponse, a: Answer) => {
    res.writeHead(a.status, { 'content-type': 'application/json', ...a.headers });
    res.end(JSON.stringify(a.body));
  };
  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture');
    requests.push(`${url.pathname}${url.search}`);
    if (!fixture.authorized(req, url, token)) return send(res, fixture.refused);
    const page = fixture.pageOf(url, links);
    if (page !== undefined) {
      askedFor(page);
      waiters.get(page)?.();
      await holds.get(page);
      if (limitOnce.delete(page)) {
        rateLimited++;
        return send(res, { status: 429, headers: { 'retry-after': '1' }, body: { message: 'RATE_LIMIT_EXCEEDED' } });
      }
    }
    send(res, fixture.answer(url, links) ?? { status: 404, body: { message: 'NOT_FOUND' } });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get rateLimited() {
      return rateLimited;
    },
    rateLimitPage: (page) => void limitOnce.add(page),
    holdPage(page) {
      let release = () => {};
      holds.set(page, new Promise<void>((resolve) => (release = resolve)));
      return () => {
        holds.delete(page);
        release();
      };
    },
    pageAsked: askedFor,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
