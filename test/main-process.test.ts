// The service as `npm start` runs it: a real process on a real port, stopped by SIGTERM. Also the
// `npm run migrate` entry point. What a newcomer and an orchestrator see.
import { spawn, execFile } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStores } from '../src/compose/stores.js';
import { loadConfig } from '../src/shared/config.js';
import { createLogger } from '../src/shared/logger.js';
import { ADMIN_TOKEN, isolate, type Isolation } from './support/service.js';

const root = path.resolve(import.meta.dirname, '..');
const tsx = path.join(root, 'node_modules', '.bin', 'tsx');
let isolation: Isolation;

beforeAll(async () => {
  isolation = await isolate({ fresh: true });
});

afterAll(async () => {
  await isolation?.dispose();
});

function baseEnv(): NodeJS.ProcessEnv {
  // The child gets exactly the test's configuration, nothing inherited that could change it.
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...isolation.env, LOG_LEVEL: 'info' };
}

describe.concurrent('npm run migrate', () => {
  it('applies the migrations and exits 0, twice in a row', async () => {
    for (let run = 0; run < 2; run++) {
      const { stdout } = await promisify(execFile)(tsx, ['src/cli/migrate.ts'], {
        cwd: root,
        env: baseEnv(),
        timeout: 60_000,
      });
      expect(stdout).toContain('migrations are up to date');
    }
    // Two cold starts of the process (tsx, PGlite, chDB, every migration) take longer than the
    // default test time on a loaded machine; the service's test must not start while one still runs.
  }, 150_000);
});

// A start refused for its configuration opens no store: it runs while the migrations do (both
// groups are concurrent), not after them.
describe.concurrent('the service process, refused', () => {
  it('refuses invalid configuration with a one-line message and exit code 2', async () => {
    const run = promisify(execFile)(tsx, ['src/main.ts'], {
      cwd: root,
      env: { ...baseEnv(), PORT: 'eighty' },
      timeout: 30_000,
    });
    const err = await run.then(
      () => undefined,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).toBe(2);
    expect(err?.stderr).toContain('PORT');
    expect(err?.stderr).not.toContain('    at ');
  });
});

describe('the service process', () => {
  it('serves on its port, and on SIGTERM drains its events and exits 0', async () => {
    // Node itself with tsx's loader, not tsx's command: that one runs the service in a child and,
    // on SIGTERM, kills it with SIGKILL when the child does not confirm the signal within 60 ms,
    // which a loaded machine's busy service sometimes cannot (the exit code was then 143).
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: root,
      env: { ...baseEnv(), PORT: '0', SIGNPOST_ADMIN_TOKEN: ADMIN_TOKEN, EVENT_BATCH_DELAY_MS: '60000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    try {
      const address = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no listening line:\n${output}`)), 60_000);
        child.stdout.on('data', () => {
          const line = output.split('\n').find((l) => l.includes('"msg":"listening"'));
          if (line) {
            clearTimeout(timer);
            resolve(JSON.parse(line).address as string);
          }
        });
        child.once('exit', (code) => reject(new Error(`exited early with ${code}:\n${output}`)));
      });

      expect(await (await fetch(`${address}/healthz`)).json()).toEqual({ status: 'ok' });
      const org = (await (
        await fetch(`${address}/api/admin/v1/organizations`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: 'Process' }),
        })
      ).json()) as { id: number; apiKey: string };
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${address}/api/v1/service/usage`, { headers: { 'x-api-key': org.apiKey } });
        expect(res.status).toBe(200);
      }
      // The log never carries the key itself.
      expect(output).not.toContain(org.apiKey);

      child.kill('SIGTERM');
      const [code] = await once(child, 'exit');
      expect(code).toBe(0);
      expect(output).toContain('"msg":"stopped"');

      const log = createLogger({ level: 'silent', pretty: false });
      const stores = await openStores(loadConfig({ ...isolation.env, LOG_LEVEL: 'silent' }), log);
      try {
        const rows = await (
          await stores.clickhouse.client.query({
            query: 'SELECT count() AS c FROM api_requests WHERE organization_id = {org:UInt64}',
            query_params: { org: org.id },
            format: 'JSONEachRow',
          })
        ).json<{ c: string }>();
        expect(Number(rows[0]!.c)).toBe(5);
      } finally {
        await stores.clickhouse.close();
        await stores.postgres.close();
      }
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 120_000);
});
