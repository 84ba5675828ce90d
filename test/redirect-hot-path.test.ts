// The redirect's hot path stays lean, checked by counting rather than timing (the machine is
// shared): a cached link is answered without a query to PostgreSQL, and clicks cross the bus in
// batches, with no promise made per click. Every answered click is still counted.
import { createHook } from 'node:async_hooks';
import { spawn } from 'node:child_process';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../src/shared/ids.js';
import { backend } from './support/backend.js';
import { startListeningService } from './support/console-browser.js';
import { eventually, isolate, type Isolation, type TestService } from './support/service.js';

const CLICKS = 4_000;
// Big enough that the background jobs' own promises (they grow with the time a loaded machine takes)
// stay far below one promise per click.
const BURST = 50_000;
const LINKS = 4;

/** Sends `count` GETs over 8 keep-alive connections from another process; prints the 302s. */
const CLIENT = `
const http = require('node:http');
const [base, count, ...aliases] = process.argv.slice(1);
const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
let next = 0, redirects = 0;
const one = () => new Promise((resolve) => {
  const req = http.get(base + '/' + aliases[next % aliases.length], { agent, headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/124.0 Safari/537.36' } }, (res) => {
    if (res.statusCode === 302) redirects++;
    res.resume();
    res.on('end', resolve);
  });
  req.on('error', resolve);
});
const worker = async () => { while (next < Number(count)) { next++; await one(); } };
Promise.all(Array.from({ length: 8 }, worker)).then(() => { console.log(redirects); agent.destroy(); });
`;

async function fromAnotherProcess(base: string, count: number, aliases: string[]): Promise<number> {
  const child = spawn(process.execPath, ['-e', CLIENT, base, String(count), ...aliases], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => (out += chunk));
  await new Promise((resolve) => child.once('exit', resolve));
  return Number(out.trim());
}

/** Counts, while `work` runs, the writes to PostgreSQL's sockets and the promises made in this process. */
async function counting<T>(work: () => Promise<T>): Promise<{ result: T; postgresWrites: number; promises: number }> {
  let postgresWrites = 0;
  let promises = 0;
  const write = net.Socket.prototype.write;
  // PostgreSQL is a Unix socket (PGlite's) or TCP port 5432; HTTP and NATS are other TCP ports.
  net.Socket.prototype.write = function (this: net.Socket, ...args: unknown[]) {
    if (this.remotePort === 5432 || (this.remoteAddress === undefined && !this.destroyed)) postgresWrites++;
    return (write as (...a: unknown[]) => boolean).apply(this, args);
  } as typeof write;
  const hook = createHook({
    init: (_id, type) => {
      if (type === 'PROMISE') promises++;
    },
  }).enable();
  try {
    const result = await work();
    return { result, postgresWrites, promises };
  } finally {
    hook.disable();
    net.Socket.prototype.write = write;
  }
}

describe(`the redirect's hot path (${backend})`, () => {
  let isolation: Isolation;
  let svc: TestService;
  let base: string;

  beforeAll(async () => {
    isolation = await isolate();
    // The production batch delay, not the tests' shorter one: batches are what is counted.
    ({ svc, base } = await startListeningService(isolation, { EVENT_BATCH_DELAY_MS: '5' }));
  });

  afterAll(async () => {
    await svc?.close();
    await isolation?.dispose();
  });

  it('answers cached links without a PostgreSQL query per click, and counts every click', async () => {
    const org = await svc.createOrganization('Hot path', 'ENTERPRISE');
    const aliases = Array.from({ length: LINKS }, (_, i) => `hot${i}`);
    for (const alias of aliases)
      await svc.service('POST', '/urls', org.apiKey, { url: `https://example.com/${alias}`, customAlias: alias });
    // One click each puts the links in the cache.
    expect(await fromAnotherProcess(base, LINKS, aliases)).toBe(LINKS);
    await svc.container.events.flush();
    expect(await svc.container.bus.drain(10_000)).toBe(true);

    const { result: redirects, postgresWrites } = await counting(() => fromAnotherProcess(base, CLICKS, aliases));
    console.log(`hot path (${backend}): ${redirects} redirects, ${postgresWrites} writes to PostgreSQL meanwhile`);
    expect(redirects).toBe(CLICKS);
    // The background jobs (usage meter, webhook and domain rounds) write now and then, whatever the
    // traffic; one query per click would be CLICKS writes and more.
    expect(postgresWrites).toBeLessThan(CLICKS / 10);

    await svc.container.events.flush();
    expect(await svc.container.bus.drain(30_000)).toBe(true);
    const counted = await eventually(
      async () => {
        const [row] = await svc.clickhouse<{ c: string }>(
          'SELECT count() AS c FROM clicks WHERE organization_id = {org:UInt64}',
          { org: org.id },
        );
        return Number(row?.c) === CLICKS + LINKS && Number(row?.c);
      },
      30_000,
      'every click in ClickHouse',
    );
    expect(counted).toBe(CLICKS + LINKS);
  }, 120_000);

  // The in-process bus's own promise economy; NATS's client keeps its own fetch loop.
  it.runIf(backend === 'embedded')(
    'records a burst of clicks through the in-process bus in batches: far fewer promises than clicks',
    async () => {
      const { events, bus } = { events: svc.container.events, bus: svc.container.bus };
      const { promises } = await counting(async () => {
        for (let i = 0; i < BURST; i++) {
          events.record({
            eventId: uuidv7(),
            type: 'click',
            occurredAt: Date.now(),
            organizationId: 1,
            data: {
              linkType: 'url',
              linkId: 1,
              host: 'localhost',
              cid: '',
              tracker: '',
              referrer: '',
              userAgent: 'burst',
              ip: '127.0.0.1',
              acceptLanguage: '',
              bot: false,
              utmSource: '',
              utmMedium: '',
              utmCampaign: '',
              utmTerm: '',
              utmContent: '',
            },
          });
        }
        await events.flush();
        await bus.drain(30_000);
      });
      console.log(
        `burst (${backend}): ${BURST} clicks recorded, published, written and drained with ${promises} promises`,
      );
      // Batches of up to EVENT_BATCH_MAX clicks, or of what 5 ms of recording brought (the batch
      // delay bounds how long a click waits, even in one long synchronous run): a few hundred
      // promises each (publish, each consumer's delivery, the insert), however many clicks they
      // hold. A promise per click would be 50,000 and more.
      expect(promises).toBeLessThan(BURST / 5);
    },
    60_000,
  );
});
