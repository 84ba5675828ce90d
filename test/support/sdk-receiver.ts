// A real HTTP server standing in for the Signpost service in the web SDK's browser tests: it serves
// the SDK bundle (built exactly as the service builds it) and pages, answers the Web SDK and
// user-journey paths like the service (CORS included), records every call, and can be told to fail
// the next calls of a path. Reachable as two origins (two ports) so a page can be cross-origin to
// the API, as on a customer's site.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildWebSdkBundle } from '../../src/api/web-sdk/bundle.js';

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  /** The raw body, and its JSON when it parses. */
  text: string;
  json: Record<string, unknown> | null;
}

export interface Receiver {
  /** The API's origin. */
  apiBase: string;
  /** Another origin (another port) with the same answers, for host pages. */
  siteBase: string;
  sdkPath: string;
  calls: RecordedCall[];
  /** Calls of one path (OPTIONS preflights left out). */
  callsTo(path: string): RecordedCall[];
  /** Serves `html` at `path` (both origins). */
  page(path: string, html: string): void;
  /** The next calls to `path` answer these statuses, one each, before normal answers resume. */
  fail(path: string, ...statuses: number[]): void;
  /** Links the resolve route knows: token → its answer. */
  links: Map<string, Record<string, unknown>>;
  /** Every API answer becomes a connection reset (the service is down). */
  down: boolean;
  reset(): void;
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, OPTIONS',
  'access-control-allow-headers': 'Content-Type, X-App-ID, X-Mobile-App-API-Key, X-Request-Id',
  'access-control-expose-headers': 'Retry-After, X-Request-Id',
};

export async function startReceiver(): Promise<Receiver> {
  const bundle = await buildWebSdkBundle();
  const pages = new Map<string, string>();
  const failures = new Map<string, number[]>();
  const calls: RecordedCall[] = [];
  const links = new Map<string, Record<string, unknown>>();
  let sessions = 0;

  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const text = Buffer.concat(chunks).toString('utf8');
      let json: Record<string, unknown> | null = null;
      try {
        json = text ? (JSON.parse(text) as Record<string, unknown>) : null;
      } catch {
        /* not JSON */
      }
      const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...CORS, ...headers });
        res.end(body === undefined ? '' : JSON.stringify(body));
      };
      if (url.pathname === receiver.sdkPath) {
        res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' });
        return res.end(bundle.identity.body);
      }
      const html = pages.get(url.pathname);
      if (html !== undefined) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        return res.end(html);
      }
      if (req.method === 'OPTIONS') {
        res.writeHead(204, { ...CORS, 'access-control-max-age': '600' });
        return res.end();
      }
      if (!url.pathname.startsWith('/api/')) {
        res.writeHead(404, { 'content-type': 'text/html' });
        return res.end('<!doctype html><title>not here</title>');
      }
      calls.push({
        method: req.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        text,
        json,
      });
      if (receiver.down) return req.socket.destroy();
      const scripted = failures.get(url.pathname)?.shift();
      if (scripted !== undefined) {
        return send(
          scripted,
          {
            status: scripted,
            error: 'scripted',
            message: 'scripted failure',
            timestamp: new Date().toISOString(),
            code: 'SCRIPTED',
          },
          scripted === 429 ? { 'retry-after': '1' } : {},
        );
      }
      switch (url.pathname) {
        case '/api/v1/sdk/web/journey/session/create':
          return send(201, {
            sessionId: `session-${++sessions}`,
            startedAt: new Date().toISOString(),
            platform: 'WEB',
          });
        case '/api/v1/sdk/web/journey/session/funnel/track':
          return send(200, { recorded: true });
        case '/api/v1/sdk/web/journey/session/event':
          return send(201, { accepted: true, eventId: 'event-1' });
        case '/api/v1/sdk/web/deeplink/resolve': {
          const link = links.get(url.searchParams.get('token') ?? '');
          return link
            ? send(200, link)
            : send(404, {
                status: 404,
                error: 'Not Found',
                message: 'unknown token',
                code: 'DEEP_LINK_TOKEN_NOT_FOUND',
              });
        }
        case '/api/v1/sdk/web/deeplink/update-fingerprint':
        case '/api/v1/sdk/web/campaign-deep-link/update-fingerprint':
          return send(200, { status: 'ok', message: 'fingerprint recorded' });
        case '/api/v1/sdk/web/deeplink/track-store-visit':
        case '/api/v1/sdk/web/deeplink/debug-scheme':
          return send(200, { status: 'ok' });
        default:
          return send(404, { status: 404, error: 'Not Found', message: 'no route', code: 'NOT_FOUND' });
      }
    });
  };
  const servers = [http.createServer(handle), http.createServer(handle)];
  await Promise.all(servers.map((server) => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))));
  const [apiPort, sitePort] = servers.map((server) => (server.address() as AddressInfo).port);

  const receiver: Receiver = {
    apiBase: `http://127.0.0.1:${apiPort}`,
    siteBase: `http://127.0.0.1:${sitePort}`,
    sdkPath: '/sdk/web/test/signpost.js',
    calls,
    callsTo: (path) => calls.filter((c) => c.path === path && c.method !== 'OPTIONS'),
    page: (path, html) => void pages.set(path, html),
    fail: (path, ...statuses) => void failures.set(path, [...(failures.get(path) ?? []), ...statuses]),
    links,
    down: false,
    reset() {
      calls.length = 0;
      sessions = 0;
      failures.clear();
      links.clear();
      receiver.down = false;
    },
    close: () =>
      Promise.all(
        servers.map(
          (server) =>
            new Promise<void>((resolve) => {
              server.closeAllConnections();
              server.close(() => resolve());
            }),
        ),
      ).then(() => {}),
  };
  return receiver;
}
