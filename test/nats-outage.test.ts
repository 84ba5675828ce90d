// NATS going away for a while: redirects keep answering without waiting, clicks wait in the
// publisher (memory, then the disk spool) and reach ClickHouse exactly once when NATS is back.
// Runs on the services backend with a private nats-server of its own, so the shared one is never
// disturbed.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { NATS_SERVER, privateNats, type PrivateNats } from './support/nats-server.js';
import { eventually, isolate, startService, type Isolation, type TestService } from './support/service.js';

describe.runIf(backend === 'services' && fs.existsSync(NATS_SERVER))('NATS unavailable for a while', () => {
  let isolation: Isolation;
  let svc: TestService;
  let nats: PrivateNats;

  beforeAll(async () => {
    nats = await privateNats();
    isolation = await isolate();
    svc = await startService(isolation, { NATS_URL: nats.url });
  });

  afterAll(async () => {
    await svc?.close();
    await nats?.dispose();
    await isolation?.dispose();
  });

  it('keeps redirecting, then writes every click exactly once when NATS returns', async () => {
    const org = await svc.createOrganization('NatsOutage');
    const link = await svc.createLink(org, { url: 'https://example.com/n', customAlias: 'natsdown' });
    const visit = async () => {
      const res = await svc.inject({
        method: 'GET',
        url: '/natsdown',
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0' },
      });
      expect(res.statusCode).toBe(302);
    };
    for (let i = 0; i < 5; i++) await visit();

    await nats.kill();
    // The cached link answers at once; the clicks wait in the publisher.
    for (let i = 0; i < 20; i++) await visit();
    expect(svc.container.events.backlog()).toBeGreaterThan(0);

    await nats.start();
    const count = async () => {
      const [row] = await svc.clickhouse<{ c: number; u: number }>(
        `SELECT toUInt64(count()) AS c, toUInt64(uniqExact(event_id)) AS u FROM clicks WHERE link_type = 'url' AND link_id = {id:UInt64}`,
        { id: link.id },
      );
      return { rows: Number(row?.c ?? 0), unique: Number(row?.u ?? 0) };
    };
    await eventually(async () => (await count()).rows >= 25, 60_000, 'every click after NATS came back');
    expect(await svc.container.bus.drain(15_000)).toBe(true);
    expect(await count()).toEqual({ rows: 25, unique: 25 });
  });
});
