// Several instances side by side on one PostgreSQL and one NATS (the services backend): what one
// instance writes the other serves at once, and their shared durable consumer writes each event
// exactly once. The embedded stores belong to one process, so this runs on test:services only.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { eventually, isolate, startService, type Isolation, type TestService } from './support/service.js';

describe.runIf(backend === 'services')('two instances', () => {
  let isolation: Isolation;
  let a: TestService;
  let b: TestService;

  beforeAll(async () => {
    isolation = await isolate();
    // Webhooks may go to a receiver on loopback.
    const env = { WEBHOOK_ALLOW_INSECURE: '1', WEBHOOK_POLL_MS: '100' };
    [a, b] = await Promise.all([startService(isolation, env), startService(isolation, env)]);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await isolation?.dispose();
  });

  it('share organizations and keys, and a key deleted on one fails at once on the other', async () => {
    const org = await a.createOrganization('Shared');
    expect((await b.service('GET', '/usage', org.apiKey)).statusCode).toBe(200);
    const extra = (await b.admin('POST', `/organizations/${org.id}/api-keys`)).json() as { id: number; apiKey: string };
    expect((await a.service('GET', '/usage', extra.apiKey)).statusCode).toBe(200);
    expect((await a.admin('DELETE', `/organizations/${org.id}/api-keys/${extra.id}`)).statusCode).toBe(204);
    expect((await b.service('GET', '/usage', extra.apiKey)).statusCode).toBe(401);
  });

  it('write every event of both instances exactly once', async () => {
    const org = await a.createOrganization('Counted');
    const perInstance = 20;
    for (let i = 0; i < perInstance; i++) {
      expect((await a.service('GET', '/usage', org.apiKey)).statusCode).toBe(200);
      expect((await b.service('GET', '/usage', org.apiKey)).statusCode).toBe(200);
    }
    await a.container.events.flush();
    await b.container.events.flush();
    const count = async () => {
      const [row] = await a.clickhouse<{ c: string; u: string }>(
        'SELECT count() AS c, uniqExact(event_id) AS u FROM api_requests WHERE organization_id = {org:UInt64}',
        { org: org.id },
      );
      return row;
    };
    await eventually(
      async () => {
        const r = await count();
        return r && Number(r.c) >= perInstance * 2 ? r : undefined;
      },
      15_000,
      'events of both instances in ClickHouse',
    );
    expect(await a.container.bus.drain(10_000)).toBe(true);
    const settled = await count();
    expect(Number(settled!.c)).toBe(perInstance * 2);
    expect(Number(settled!.u)).toBe(perInstance * 2);
  });

  it('count quota usage across instances', async () => {
    const org = await a.createOrganization('Quota');
    await a.admin('PUT', `/organizations/${org.id}/plan`, { plan: 'FREE', monthlyQuota: 4 });
    expect((await a.service('GET', '/usage', org.apiKey)).statusCode).toBe(200);
    expect((await a.service('GET', '/usage', org.apiKey)).statusCode).toBe(200);
    await a.container.usageMeter.flush();
    expect((await b.service('GET', '/usage', org.apiKey)).statusCode).toBe(200);
    expect((await b.service('GET', '/usage', org.apiKey)).statusCode).toBe(200);
    await b.container.usageMeter.flush();
    expect((await a.service('GET', '/usage', org.apiKey)).statusCode).toBe(429);
    expect((await b.service('GET', '/usage', org.apiKey)).statusCode).toBe(429);
  });

  it('send the webhooks of clicks on either instance right after the endpoint is saved on one', async () => {
    const bodies: { type: string; data: { shortCode?: string } }[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        bodies.push(JSON.parse(Buffer.concat(chunks).toString('utf8')));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    try {
      const org = await a.createOrganization('Hooked');
      // Both instances' consumers have just read the subscriptions (none) for these API calls.
      for (const svc of [a, b]) {
        expect((await svc.service('GET', '/usage', org.apiKey)).statusCode).toBe(200);
        await svc.container.events.flush();
      }
      expect(await a.container.bus.drain(10_000)).toBe(true);
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
      expect(
        (await a.admin('PUT', `/organizations/${org.id}/webhook`, { url, secret: 'whsec-two-instances-0123' }))
          .statusCode,
      ).toBe(200);
      const created = await a.service('POST', '/urls', org.apiKey, { url: 'https://shop.example/two' });
      const { shortCode } = created.json() as { shortCode: string };
      const chrome =
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
      for (let i = 0; i < 5; i++) {
        for (const svc of [a, b]) {
          const visit = await svc.inject({ method: 'GET', url: `/${shortCode}`, headers: { 'user-agent': chrome } });
          expect(visit.statusCode).toBe(302);
        }
      }
      await Promise.all([a.container.events.flush(), b.container.events.flush()]);
      const clicks = () => bodies.filter((x) => x.type === 'click.url' && x.data.shortCode === shortCode);
      await eventually(async () => clicks().length >= 10, 15_000, 'ten click webhooks');
      expect(clicks()).toHaveLength(10);
    } finally {
      await new Promise<void>((r) => receiver.close(() => r()));
    }
  });

  it('split into an api-only and a worker-only process: the worker writes what the api publishes', async () => {
    // Their own databases and namespace (the two full instances above would take the events too);
    // chDB allows one data directory per process, so that one is shared.
    const own = await isolate();
    const api = await startService(own, { SIGNPOST_ROLES: 'api', DATA_DIR: isolation.dataDir });
    const worker = await startService(own, { SIGNPOST_ROLES: 'worker', DATA_DIR: isolation.dataDir });
    try {
      // The worker answers the operator's probes only.
      expect((await worker.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
      expect((await worker.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(200);
      expect((await worker.inject({ method: 'GET', url: '/api/v1/service/usage' })).statusCode).toBe(404);
      // The api process reads nothing off the bus.
      expect(await api.container.bus.stats()).toEqual({ pending: {} });

      const org = await api.createOrganization('Split');
      const created = await api.service('POST', '/urls', org.apiKey, { url: 'https://shop.example/split' });
      const link = created.json() as { id: number; shortCode: string };
      for (let i = 0; i < 3; i++)
        expect(
          (
            await api.inject({
              method: 'GET',
              url: `/${link.shortCode}`,
              headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0' },
            })
          ).statusCode,
        ).toBe(302);
      await api.container.events.flush();
      const clicks = await eventually(
        async () => {
          const [row] = await worker.clickhouse<{ c: string }>(
            'SELECT count() AS c FROM clicks WHERE organization_id = {org:UInt64}',
            { org: org.id },
          );
          return Number(row?.c) === 3 && row;
        },
        15_000,
        'the clicks written by the worker',
      );
      expect(Number(clicks.c)).toBe(3);
      expect(
        await worker.container.deps.metrics.get('events_written_total', { table: 'clicks' }),
      ).toBeGreaterThanOrEqual(3);
      expect(await api.container.deps.metrics.get('events_written_total', { table: 'clicks' })).toBe(0);
    } finally {
      await api.close();
      await worker.close();
      await own.dispose();
    }
  });
});
