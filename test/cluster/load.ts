// The traffic of the cluster run, through nginx on keep-alive connections: numbered redirects (the
// number rides in utm_term, so each click row says which request it was), journey events with ids
// of their own through the web SDK's endpoint, and the webhook receiver. Each answer is kept with
// when it came and which api processes nginx tried for it (X-Upstream).
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_TOKEN } from './processes.js';

const BROWSER =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

export interface Answer {
  at: number;
  /** The api processes' ports nginx tried, in order; the last one answered. */
  upstreams: number[];
}

function request(
  agent: http.Agent,
  base: URL,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number | undefined; text: string; upstreams: number[] }> {
  return new Promise((resolve) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        path,
        method,
        headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const upstream = res.headers['x-upstream'];
          const upstreams = (typeof upstream === 'string' ? upstream : '')
            .split(',')
            .map((u) => Number(u.trim().split(':').at(-1)))
            .filter((p) => p > 0);
          resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8'), upstreams });
        });
        res.on('error', () => resolve({ status: undefined, text: '', upstreams: [] }));
      },
    );
    req.on('error', () => resolve({ status: undefined, text: '', upstreams: [] }));
    req.end(payload);
  });
}

/** A JSON call that must succeed (the run's set-up). */
async function call<T>(address: string, method: string, path: string, headers: Record<string, string>, body?: unknown) {
  const agent = new http.Agent();
  const res = await request(agent, new URL(address), method, path, headers, body);
  agent.destroy();
  if (res.status === undefined || res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${res.text}`);
  return JSON.parse(res.text) as T;
}

export interface Scenario {
  loadOrg: number;
  hookedOrg: number;
  loadAliases: string[];
  hookedAlias: string;
  appId: number;
  sessions: string[];
}

/**
 * Two organizations: one takes most redirects; the other takes every tenth, has the webhook and
 * the journey app, so the receiver sees each of its events without the webhooks doubling the load.
 */
export async function setUp(address: string, webhookUrl: string, links: number): Promise<Scenario> {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
  const org = (name: string) =>
    call<{ id: number; apiKey: string }>(address, 'POST', '/api/admin/v1/organizations', admin, {
      name,
      plan: 'ENTERPRISE',
    });
  const load = await org('Cluster load');
  const hooked = await org('Cluster hooked');
  const link = (apiKey: string, alias: string) =>
    call(
      address,
      'POST',
      '/api/v1/service/urls',
      { 'x-api-key': apiKey },
      {
        url: `https://example.com/${alias}`,
        customAlias: alias,
      },
    );
  const loadAliases = Array.from({ length: links }, (_, i) => `cl${i}`);
  for (const alias of loadAliases) await link(load.apiKey, alias);
  await link(hooked.apiKey, 'hooked');
  await call(address, 'PUT', `/api/admin/v1/organizations/${hooked.id}/webhook`, admin, {
    url: webhookUrl,
    secret: 'whsec-cluster-run-0123456789',
  });
  await call(address, 'PUT', `/api/admin/v1/organizations/${hooked.id}/add-ons`, admin, { userJourney: true });
  const app = await call<{ id: number }>(
    address,
    'POST',
    '/api/v1/service/mobile-apps',
    { 'x-api-key': hooked.apiKey },
    {
      platform: 'IOS',
      appName: 'Cluster app',
      bundleId: 'com.example.cluster',
    },
  );
  const sessions: string[] = [];
  for (let i = 0; i < 8; i++) {
    const session = await call<{ sessionId: string }>(
      address,
      'POST',
      '/api/v1/sdk/web/journey/session/create',
      { 'x-app-id': String(app.id) },
      { platform: 'WEB' },
    );
    sessions.push(session.sessionId);
  }
  return { loadOrg: load.id, hookedOrg: hooked.id, loadAliases, hookedAlias: 'hooked', appId: app.id, sessions };
}

export interface Load {
  /** Answered redirects (302) by request number. */
  answered: Map<number, Answer>;
  /** Request numbers that went to the webhook organization's link. */
  hookedNumbers: Set<number>;
  /** Requests that got no 302 (an error, a 502 while an api process was down). */
  failed: number;
  /** Journey events answered 201, by their id. */
  journeyAnswered: Map<string, Answer>;
  journeyFailed: number;
  stop(): Promise<void>;
}

/**
 * Redirects at `perSecond` over up to `connections` keep-alive connections (each asks again once
 * answered, so a slow answer delays only its own connection), and a journey event every
 * `journeyEveryMs` on two more. A steady pace, not the most the machine answers: the processes the
 * run restarts must find the cores to start on.
 */
export function startLoad(
  address: string,
  scenario: Scenario,
  connections: number,
  perSecond: number,
  journeyEveryMs = 20,
): Load {
  const base = new URL(address);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections + 2 });
  let stopped = false;
  let sent = 0;
  const load: Load = {
    answered: new Map(),
    hookedNumbers: new Set(),
    failed: 0,
    journeyAnswered: new Map(),
    journeyFailed: 0,
    async stop() {
      stopped = true;
      await Promise.all(loops);
      agent.destroy();
    },
  };
  const startedAt = performance.now();
  const redirects = async () => {
    while (!stopped) {
      const n = sent++;
      // Request n leaves at its time on the schedule, or at once when the run is behind it.
      const due = startedAt + (n * 1000) / perSecond - performance.now();
      if (due > 0) await new Promise((r) => setTimeout(r, due));
      if (stopped) break;
      const hooked = n % 10 === 0;
      const alias = hooked ? scenario.hookedAlias : scenario.loadAliases[n % scenario.loadAliases.length]!;
      if (hooked) load.hookedNumbers.add(n);
      const res = await request(agent, base, 'GET', `/${alias}?utm_term=${n}`, {
        'user-agent': BROWSER,
        accept: 'text/html',
      });
      if (res.status === 302) load.answered.set(n, { at: performance.now(), upstreams: res.upstreams });
      else load.failed++;
    }
  };
  const journey = async (lane: number) => {
    for (let i = lane; !stopped; i += 2) {
      const eventId = randomUUID();
      const res = await request(
        agent,
        base,
        'POST',
        '/api/v1/sdk/web/journey/session/event',
        { 'x-app-id': String(scenario.appId), 'user-agent': BROWSER },
        { sessionId: scenario.sessions[i % scenario.sessions.length], eventType: 'page_view', eventId },
      );
      if (res.status === 201) load.journeyAnswered.set(eventId, { at: performance.now(), upstreams: res.upstreams });
      else load.journeyFailed++;
      await new Promise((r) => setTimeout(r, journeyEveryMs));
    }
  };
  const loops = [...Array.from({ length: connections }, redirects), journey(0), journey(1)];
  return load;
}

/** Redirects only, as fast as answered, for `ms`: the number answered. */
export async function redirectsFor(address: string, aliases: string[], connections: number, ms: number) {
  const base = new URL(address);
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const until = performance.now() + ms;
  let answered = 0;
  let n = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const res = await request(agent, base, 'GET', `/${aliases[n++ % aliases.length]}?utm_term=t${n}`, {
          'user-agent': BROWSER,
          accept: 'text/html',
        });
        if (res.status === 302) answered++;
      }
    }),
  );
  agent.destroy();
  return answered;
}

export interface Receiver {
  url: string;
  /** Each delivery as it came: its webhook-id header and its type. */
  deliveries: { id: string; type: string }[];
  close(): Promise<void>;
}

/** A webhook receiver on loopback that answers 200 to everything and keeps each delivery's id. */
export async function webhookReceiver(): Promise<Receiver> {
  const deliveries: Receiver['deliveries'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const id = req.headers['webhook-id'];
      let type = '';
      try {
        type = (JSON.parse(Buffer.concat(chunks).toString('utf8')) as { type: string }).type;
      } catch {
        type = 'unreadable';
      }
      deliveries.push({ id: typeof id === 'string' ? id : '', type });
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    deliveries,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
