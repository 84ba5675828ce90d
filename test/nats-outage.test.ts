// NATS going away for a while: redirects keep answering without waiting, clicks wait in the
// publisher (memory, then the disk spool) and reach ClickHouse exactly once when NATS is back.
// Runs on the services backend with a private nats-server of its own, so the shared one is never
// disturbed.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { eventually, isolate, startService, type Isolation, type TestService } from './support/service.js';

const NATS_SERVER = '/usr/sbin/nats-server';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function startNats(port: number, storeDir: string): ChildProcess {
  return spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
}

async function waitForPort(port: number): Promise<void> {
  await eventually(() => new Promise<boolean>((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  }), 10_000, `NATS on port ${port}`);
}

describe.runIf(backend === 'services' && fs.existsSync(NATS_SERVER))('NATS unavailable for a while', () => {
  let isolation: Isolation;
  let svc: TestService;
  let nats: ChildProcess;
  let port: number;
  const storeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-nats-'));

  beforeAll(async () => {
    port = await freePort();
    nats = startNats(port, storeDir);
    await waitForPort(port);
    isolation = await isolate();
    svc = await startService(isolation, { NATS_URL: `nats://127.0.0.1:${port}` });
  });

  afterAll(async () => {
    await svc?.close();
    nats?.kill('SIGKILL');
    await isolation?.dispose();
    fs.rmSync(storeDir, { recursive: true, force: true });
  });

  it('keeps redirecting, then writes every click exactly once when NATS returns', async () => {
    const org = await svc.createOrganization('NatsOutage');
    const link = (await svc.service('POST', '/urls', org.apiKey, { url: 'https://example.com/n', customAlias: 'natsdown' })).json();
    const visit = async () => {
      const res = await svc.inject({ method: 'GET', url: '/natsdown', headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/125.0' } });
      expect(res.statusCode).toBe(302);
    };
    for (let i = 0; i < 5; i++) await visit();

    nats.kill('SIGKILL');
    await new Promise((r) => nats.once('exit', r));
    // The cached link answers at once; the clicks wait in the publisher.
    for (let i = 0; i < 20; i++) await visit();
    expect(svc.container.deps.events.backlog()).toBeGreaterThan(0);

    nats = startNats(port, storeDir);
    await waitForPort(port);
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
