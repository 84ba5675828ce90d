// No click is lost: not while ClickHouse refuses inserts for a while, not across a restart with
// events still unwritten, and a batch delivered again is never counted twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, isolate, startService, type Isolation, type TestService } from './support/service.js';

let isolation: Isolation;

beforeAll(async () => {
  isolation = await isolate();
});

afterAll(async () => {
  await isolation?.dispose();
});

async function createLink(svc: TestService, apiKey: string, alias: string): Promise<number> {
  const res = await svc.service('POST', '/urls', apiKey, { url: 'https://example.com/landing', customAlias: alias });
  expect(res.statusCode).toBe(201);
  return res.json().id as number;
}

async function click(svc: TestService, alias: string, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    const res = await svc.inject({
      method: 'GET',
      url: `/${alias}`,
      headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Chrome/124.0' },
    });
    expect(res.statusCode).toBe(302);
  }
}

async function counts(svc: TestService, linkId: number) {
  const [raw] = await svc.clickhouse<{ c: number; u: number }>(
    `SELECT toUInt64(count()) AS c, toUInt64(uniqExact(event_id)) AS u FROM clicks WHERE link_type = 'url' AND link_id = {id:UInt64}`,
    { id: linkId },
  );
  const [total] = await svc.clickhouse<{ s: number }>(
    `SELECT toUInt64(sum(clicks)) AS s FROM link_click_totals WHERE link_type = 'url' AND link_id = {id:UInt64}`,
    { id: linkId },
  );
  return { rows: Number(raw?.c ?? 0), unique: Number(raw?.u ?? 0), total: Number(total?.s ?? 0) };
}

describe('ClickHouse refusing inserts for a while', () => {
  it('keeps every click and writes each exactly once when it comes back', async () => {
    const svc = await startService(isolation);
    try {
      const org = await svc.createOrganization('Outage');
      const linkId = await createLink(svc, org.apiKey, 'outage');
      await svc.clickhouse('DETACH TABLE clicks');
      await click(svc, 'outage', 30);
      await svc.container.events.flush();
      // The consumer fails and retries in the meantime; give it a few rounds.
      await new Promise((r) => setTimeout(r, 1500));
      await svc.clickhouse('ATTACH TABLE clicks');
      const settled = await eventually(
        async () => {
          const c = await counts(svc, linkId);
          return c.rows >= 30 ? c : undefined;
        },
        30_000,
        'clicks after ClickHouse came back',
      );
      expect(await svc.container.bus.drain(10_000)).toBe(true);
      expect(await counts(svc, linkId)).toEqual({ rows: 30, unique: 30, total: 30 });
      expect(settled.unique).toBe(settled.rows);
    } finally {
      await svc.close();
    }
  });
});

describe('restart with events not yet written', () => {
  it('loses none: what could not be written before the stop is written after the start', async () => {
    const first = await startService(isolation, { SHUTDOWN_TIMEOUT_MS: '1500' });
    const org = await first.createOrganization('Restart');
    const linkId = await createLink(first, org.apiKey, 'restart');
    await first.clickhouse('DETACH TABLE clicks');
    await click(first, 'restart', 12);
    await first.close();

    // A DETACH without PERMANENTLY ends with the engine's session: the next start finds the table
    // back, as after an operator fixed ClickHouse in between.
    const second = await startService(isolation);
    try {
      await eventually(async () => (await counts(second, linkId)).rows >= 12, 30_000, 'clicks of the previous run');
      expect(await second.container.bus.drain(10_000)).toBe(true);
      expect(await counts(second, linkId)).toEqual({ rows: 12, unique: 12, total: 12 });
    } finally {
      await second.close();
    }
  });
});
