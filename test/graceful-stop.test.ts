// Ctrl-C on `npm start`, as a terminal sends it: SIGINT to the whole process group (npm and the
// service), while clicks are being answered. npm passes the signal on, so the service gets it
// more than once; it must still drain, exit cleanly, and every answered click must be counted
// after a restart. The same for SIGTERM to the group (how a supervisor stops it).
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backend } from './support/backend.js';
import { isolate, type Isolation } from './support/service.js';
import { linksOf, type Running, redirect, settledCounts, startService } from './support/service-process.js';

const LINKS = 4;
const CONNECTIONS = 16;

let isolation: Isolation;
const children: ChildProcess[] = [];

beforeAll(async () => {
  isolation = await isolate();
});

afterAll(async () => {
  for (const child of children)
    if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
  await isolation?.dispose();
});

const NPM_START = ['npm', 'start'];
const signals = ['SIGINT', 'SIGTERM'] as const;
/**
 * The restart after one case is `npm start` again when another case follows, and that case stops
 * it: one start less than a start of its own per case. The last case's restart is the service alone.
 */
let running: Running | undefined;

async function stopGroup(service: Running): Promise<void> {
  if (service.child.exitCode !== null || service.child.signalCode !== null) return;
  const closed = once(service.child, 'close');
  process.kill(-service.child.pid!, 'SIGTERM');
  await closed;
}

describe(`stopping npm start (${backend})`, () => {
  it.each(signals)(
    'drains on %s to the process group: every answered click is counted after a restart',
    async (signal) => {
      const first = running ?? (await startService(isolation, children, NPM_START));
      running = undefined;
      // What this case's stop logs, not what the process logged while it was the previous case's restart.
      const logFrom = first.output().length;
      const prefix = signal === 'SIGINT' ? 'int' : 'term';
      const { org, ids } = await linksOf(first.address, `Stopped by ${signal}`, prefix, LINKS);
      const target = new URL(first.address);
      const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
      let answered = 0;
      let stopping = false;
      let sent = 0;
      const workers = Array.from({ length: CONNECTIONS }, async (_, w) => {
        for (let n = w; !stopping; n++) {
          if ((await redirect(agent, target, `${prefix}${n % LINKS}`, sent++)) === 302) answered++;
        }
      });
      await new Promise((r) => setTimeout(r, 1_500));
      const answeredBeforeSignal = answered;
      process.kill(-first.child.pid!, signal);
      // 'close': npm may end first, but the service writes to the same pipes until it has stopped.
      const [code, killedBy] = await once(first.child, 'close');
      stopping = true;
      await Promise.all(workers);
      agent.destroy();

      const log = first.output().slice(logFrom);
      expect(log).toContain('shutting down');
      expect(log).not.toContain('exiting now');
      // The service finished its drain; npm then ends as the signal asked (a shell sees 130 for Ctrl-C).
      expect(log).toContain('"msg":"stopped"');
      expect(code === 0 || killedBy === signal, `npm exited with ${code ?? killedBy}`).toBe(true);
      expect(answeredBeforeSignal).toBeGreaterThan(100);

      const another = signal !== signals.at(-1);
      const second = await startService(isolation, children, another ? NPM_START : undefined);
      let handedOn = false;
      try {
        expect(await settledCounts(second.address, org.apiKey, ids)).toBe(answered);
        if (another) {
          running = second;
          handedOn = true;
        }
      } finally {
        if (!handedOn) {
          if (another) await stopGroup(second);
          else {
            second.child.kill('SIGTERM');
            await once(second.child, 'exit');
          }
        }
      }
    },
    240_000,
  );
});
