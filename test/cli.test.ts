// The `signpost` command as an operator runs it: a child process talking HTTP to the real service
// on a real port, judged by what it prints and how it exits.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { startImportFixture } from './support/import-fixtures.js';
import { ADMIN_TOKEN, serviceForFile } from './support/service.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const launcher = path.join(root, 'bin', 'signpost.mjs');

let baseUrl: string;

// Imports read a stand-in service on loopback.
const svc = serviceForFile({ PORT: '0', IMPORT_ALLOW_INSECURE: '1', IMPORT_POLL_MS: '200' });

beforeAll(async () => {
  baseUrl = await svc.container.listen();
});

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI from another directory, with only the environment an operator would set. */
function signpost(args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const childEnv: Record<string, string> = { PATH: process.env.PATH ?? '' };
  for (const [name, value] of Object.entries({ SIGNPOST_URL: baseUrl, SIGNPOST_ADMIN_TOKEN: ADMIN_TOKEN, ...env })) {
    if (value !== undefined) childEnv[name] = value;
  }
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [launcher, ...args],
      { cwd: svc.isolation.dataDir, env: childEnv, timeout: 20_000 },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') return reject(err);
        resolve({ code: err ? Number(err.code) : 0, stdout, stderr });
      },
    );
  });
}

/** The `key: value` lines of a readable answer. */
function fields(stdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const match = /^([\w.]+): (.*)$/.exec(line);
    if (match?.[1] !== undefined && match[2] !== undefined) out[match[1]] = match[2];
  }
  return out;
}

function usage(apiKey: string): Promise<Response> {
  return fetch(`${baseUrl}/api/v1/service/usage`, {
    headers: { 'x-api-key': apiKey },
    signal: AbortSignal.timeout(10_000),
  });
}

function expectNoStackTrace(run: Run) {
  expect(run.stderr).not.toMatch(/\n\s+at /);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
}

describe('signpost org', () => {
  it('creates an organization, prints its key once, and the key works', async () => {
    const run = await signpost(['org', 'create', '--name', 'Acme', '--plan', 'PRO']);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    const org = fields(run.stdout);
    expect(org).toMatchObject({ name: 'Acme', plan: 'PRO', monthlyQuota: '100000' });
    expect(org.id).toMatch(/^\d+$/);
    expect(org.apiKey).toBeTruthy();
    expect(run.stdout).toMatch(/shown only this once/);

    const res = await usage(org.apiKey!);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ organizationId: Number(org.id), plan: 'PRO' });
  });

  it('prints the raw JSON answer with --json', async () => {
    const run = await signpost(['org', 'create', '--name', 'Jsonic', '--json']);
    expect(run.code).toBe(0);
    const body = JSON.parse(run.stdout) as Record<string, unknown>;
    expect(body).toMatchObject({ name: 'Jsonic', plan: 'FREE', monthlyQuotaOverride: null, ipAllowlist: [] });
    expect(typeof body.id).toBe('number');
    expect(typeof body.apiKey).toBe('string');
    expect(run.stderr).toMatch(/shown only this once/);
  });

  it('changes the plan and quota, and goes back to the plan default', async () => {
    const { id } = await svc.createOrganization('Planned');
    const set = await signpost(['org', 'plan', String(id), '--plan', 'business', '--quota', '42']);
    expect(set.code).toBe(0);
    expect(fields(set.stdout)).toMatchObject({ plan: 'BUSINESS', monthlyQuota: '42', monthlyQuotaOverride: '42' });

    const reset = await signpost(['org', 'plan', String(id), '--plan', 'PRO', '--quota', 'default', '--json']);
    expect(reset.code).toBe(0);
    expect(JSON.parse(reset.stdout)).toMatchObject({ plan: 'PRO', monthlyQuota: 100_000, monthlyQuotaOverride: null });

    const shown = await signpost(['org', 'show', String(id)]);
    expect(fields(shown.stdout)).toMatchObject({ id: String(id), plan: 'PRO' });
  });
});

describe('signpost key', () => {
  it('issues a key that works, and deletes it so it fails at once', async () => {
    const org = await svc.createOrganization('Keyed');
    const created = await signpost(['key', 'create', String(org.id)]);
    expect(created.code).toBe(0);
    const key = fields(created.stdout);
    expect(key.id).toMatch(/^\d+$/);
    expect(created.stdout).toMatch(/shown only this once/);
    expect((await usage(key.apiKey!)).status).toBe(200);

    const deleted = await signpost(['key', 'delete', String(org.id), key.id!]);
    expect(deleted.code).toBe(0);
    expect(deleted.stdout).toMatch(/deleted/);
    expect((await usage(key.apiKey!)).status).toBe(401);
    expect((await usage(org.apiKey)).status).toBe(200);

    const again = await signpost(['key', 'delete', String(org.id), key.id!]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('API_KEY_NOT_FOUND');
    expectNoStackTrace(again);
  });
});

describe('signpost org list, key list/show', () => {
  /** The rows of a table the CLI printed: header first, then one line per record, split on runs of spaces. */
  const tableRows = (stdout: string) =>
    stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.trim().split(/\s{2,}/));

  it('lists organizations as a table, newest first, filtered and paged; --json prints the page', async () => {
    const tag = `Tabled${Date.now()}`;
    const a = await svc.createOrganization(`${tag} one`, 'PRO');
    const b = await svc.createOrganization(`${tag} two`, 'PRO');
    const run = await signpost(['org', 'list', '--search', tag, '--plan', 'pro']);
    expect(run.code, run.stderr).toBe(0);
    const rows = tableRows(run.stdout);
    expect(rows[0]).toEqual(['id', 'name', 'plan', 'monthlyQuota', 'createdAt']);
    expect(rows.slice(1, 3).map((r) => r.slice(0, 3))).toEqual([
      [String(b.id), `${tag} two`, 'PRO'],
      [String(a.id), `${tag} one`, 'PRO'],
    ]);
    expect(rows.at(-1)).toEqual(['2 in all']);
    const paged = await signpost(['org', 'list', '--search', tag, '--size', '1', '--page', '1']);
    expect(tableRows(paged.stdout).slice(1)).toEqual([
      [String(a.id), `${tag} one`, 'PRO', '100000', expect.any(String)],
      ['2 in all; page 1 of 0..1 (--page N)'],
    ]);
    const json = JSON.parse((await signpost(['org', 'list', '--search', tag, '--json'])).stdout);
    expect(json).toMatchObject({ totalElements: 2, page: 0 });
    const bad = await signpost(['org', 'list', '--page', 'first']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--page');
  });

  it("lists an organization's keys by name and prefix, never the key, and shows one", async () => {
    const org = await svc.createOrganization('Listed keys');
    const list = await signpost(['key', 'list', String(org.id)]);
    expect(list.code, list.stderr).toBe(0);
    const rows = tableRows(list.stdout);
    expect(rows[0]).toEqual(['id', 'name', 'prefix', 'scopes', 'expiresAt', 'createdAt']);
    const [keyId, , prefix, scopes, expiresAt] = rows[1]!;
    expect([scopes, expiresAt]).toEqual(['-', '-']);
    expect(org.apiKey.startsWith(prefix!)).toBe(true);
    expect(list.stdout).not.toContain(org.apiKey);
    const shown = await signpost(['key', 'show', String(org.id), keyId!]);
    expect(fields(shown.stdout)).toMatchObject({ id: keyId, prefix });
    expect(shown.stdout).not.toContain(org.apiKey);
  });

  it('issues a named, read-only key that expires, which reads and may not write', async () => {
    const org = await svc.createOrganization('Read-only key');
    const expires = new Date(Date.now() + 86_400_000).toISOString();
    const made = await signpost([
      'key',
      'create',
      String(org.id),
      '--name',
      'reports',
      '--scopes',
      'read',
      '--expires',
      expires,
    ]);
    expect(made.code, made.stderr).toBe(0);
    const apiKey = fields(made.stdout).apiKey!;
    expect((await svc.service('GET', '/urls', apiKey)).statusCode).toBe(200);
    expect((await svc.service('POST', '/urls', apiKey, { url: 'https://example.com/x' })).statusCode).toBe(403);
    const rows = tableRows((await signpost(['key', 'list', String(org.id)])).stdout);
    expect(rows.find((r) => r[1] === 'reports')).toEqual([
      expect.any(String),
      'reports',
      expect.any(String),
      'read',
      expires,
      expect.any(String),
    ]);
  });

  it('issues a key scoped to links and statistics reads, and refuses an unknown scope', async () => {
    const org = await svc.createOrganization('Scoped key');
    const link = await svc.createLink(org, { url: 'https://example.com/scoped' });
    const made = await signpost(['key', 'create', String(org.id), '--scopes', 'links:read,statistics:read']);
    expect(made.code, made.stderr).toBe(0);
    const apiKey = fields(made.stdout).apiKey!;
    expect((await svc.service('GET', '/urls', apiKey)).statusCode).toBe(200);
    expect((await svc.service('GET', `/urls/${link.id}/stats`, apiKey)).statusCode).toBe(200);
    expect((await svc.service('GET', '/campaigns', apiKey)).statusCode).toBe(403);
    const rows = tableRows((await signpost(['key', 'list', String(org.id)])).stdout);
    expect(rows.map((r) => r[3])).toContain('links:read,statistics:read');

    const wrong = await signpost(['key', 'create', String(org.id), '--scopes', 'links:read,links:delete']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('scopes.1');
  });
});

describe('signpost domain', () => {
  it('registers a custom domain as PENDING with its CNAME record, then overrides the status', async () => {
    const org = await svc.createOrganization('Domained');
    const added = await signpost(['domain', 'add', String(org.id), 'links.domained.example']);
    expect(added.code).toBe(0);
    const domain = fields(added.stdout);
    expect(domain).toMatchObject({
      domainName: 'links.domained.example',
      status: 'PENDING',
      cnameRecordName: 'links.domained.example',
    });

    const active = await signpost(['domain', 'status', domain.id!, 'ACTIVE']);
    expect(active.code).toBe(0);
    expect(fields(active.stdout)).toMatchObject({ id: domain.id, status: 'ACTIVE' });
  });

  it('lists and shows domains, those whose owners asked for deletion too, and completes a deletion', async () => {
    const org = await svc.createOrganization('Leaving');
    const domain = fields((await signpost(['domain', 'add', String(org.id), 'links.leaving.example'])).stdout);
    expect((await svc.service('POST', `/custom-domains/${domain.id}/deletion-request`, org.apiKey)).statusCode).toBe(
      200,
    );
    const list = await signpost(['domain', 'list', '--org', String(org.id), '--deletion-requested', 'true']);
    expect(list.code, list.stderr).toBe(0);
    const lines = list.stdout
      .trimEnd()
      .split('\n')
      .map((line) => line.trim().split(/\s{2,}/));
    expect(lines[0]).toEqual(['id', 'domainName', 'organizationId', 'status', 'deletionRequested', 'createdAt']);
    expect(lines[1]!.slice(0, 5)).toEqual([domain.id, 'links.leaving.example', String(org.id), 'PENDING', 'true']);
    expect(fields((await signpost(['domain', 'show', domain.id!])).stdout)).toMatchObject({
      domainName: 'links.leaving.example',
      deletionRequested: 'true',
    });
    const deleted = await signpost(['domain', 'delete', domain.id!]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`deleted: custom domain ${domain.id}`);
    const gone = await signpost(['domain', 'show', domain.id!]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('CUSTOM_DOMAIN_NOT_FOUND');
    expect((await signpost(['domain', 'list', '--deletion-requested', 'maybe'])).code).toBe(2);
  });
});

describe('signpost member, login-link and partner', () => {
  it('adds a member, lists members, hands out a sign-in link that opens the console once', async () => {
    const org = fields((await signpost(['org', 'create', '--name', 'People'])).stdout);
    const added = await signpost([
      'member',
      'add',
      org.id!,
      '--email',
      'ops@example.com',
      '--role',
      'admin',
      '--name',
      'Ops',
    ]);
    expect(added.code).toBe(0);
    expect(fields(added.stdout)).toMatchObject({ email: 'ops@example.com', role: 'admin', name: 'Ops' });
    const listed = fields((await signpost(['member', 'list', org.id!])).stdout);
    expect(listed).toMatchObject({ '0.email': 'ops@example.com', '0.role': 'admin' });

    const link = await signpost(['login-link', '--email', 'ops@example.com']);
    expect(link.code).toBe(0);
    expect(link.stdout).toContain('it works once');
    // PUBLIC_BASE_URL names port 0 here (the service took a free one): the same path on the real port.
    const printed = new URL(fields(link.stdout).url!);
    expect(printed.pathname).toBe('/console/auth/link');
    const url = new URL(`${printed.pathname}${printed.search}`, baseUrl).toString();
    const opened = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) });
    expect(opened.status).toBe(302);
    expect(opened.headers.get('location')).toBe('/console/');
    expect(opened.headers.get('set-cookie')).toMatch(/^sp_session=/);
    expect((await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10_000) })).status).toBe(410);

    const unknown = await signpost(['login-link', '--email', 'nobody@example.com']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('USER_NOT_FOUND');
  });

  it('registers a partner into an organization, rotates its secret, lists and deletes it', async () => {
    const org = fields((await signpost(['org', 'create', '--name', 'Partnered'])).stdout);
    const created = await signpost([
      'partner',
      'create',
      '--name',
      'Shop',
      '--origins',
      'https://shop.example',
      '--login-url',
      'https://shop.example/login',
      '--email',
      'dev@shop.example',
      '--org',
      org.id!,
      '--role',
      'analyst',
    ]);
    expect(created.code).toBe(0);
    const { clientId, sharedSecret } = fields(created.stdout);
    expect(created.stdout).toContain('shown only this once');
    const shown = fields((await signpost(['partner', 'show', clientId!])).stdout);
    expect(shown).toMatchObject({ organizationId: org.id, defaultRole: 'analyst', serviceName: 'Shop' });
    const rotated = fields((await signpost(['partner', 'secret', clientId!])).stdout);
    expect(rotated.sharedSecret).toBeDefined();
    expect(rotated.sharedSecret).not.toBe(sharedSecret);
    expect((await signpost(['partner', 'list'])).stdout).toContain(clientId!);
    const deleted = await signpost(['partner', 'delete', clientId!]);
    expect(deleted.stdout).toContain(`deleted: partner ${clientId}`);
    expect((await signpost(['partner', 'show', clientId!])).code).toBe(1);
  });
});

describe('signpost sql', () => {
  it('prints the rows of a read-only query as JSON lines, CSV or Parquet', async () => {
    const a = await svc.createOrganization('Sql A', 'PRO');
    const b = await svc.createOrganization('Sql B', 'PRO');
    const query = `SELECT id, name FROM (SELECT ${a.id} AS id, 'A' AS name UNION ALL SELECT ${b.id}, 'B') ORDER BY id`;
    const json = await signpost(['sql', query]);
    expect(json.code, json.stderr).toBe(0);
    expect(json.stdout).toBe(`{"id":${a.id},"name":"A"}\n{"id":${b.id},"name":"B"}\n`);
    const csv = await signpost([
      'sql',
      "SELECT count() AS tables FROM system.tables WHERE database = currentDatabase() AND name = 'clicks_v1'",
      '--format',
      'csv',
    ]);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe('"tables"\n1\n');
    const parquet = await signpost(['sql', 'SELECT 1 AS one', '--format', 'Parquet', '--org', String(a.id)]);
    expect(parquet.code, parquet.stderr).toBe(0);
    expect(parquet.stdout.startsWith('PAR1')).toBe(true);
  });

  it('says why a query is refused, in one line, with exit 1; wrong options are usage errors', async () => {
    const refused = await signpost(['sql', 'DROP TABLE clicks']);
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/only reading statements run here .*\(SQL_NOT_READ_ONLY\)/);
    expectNoStackTrace(refused);
    const format = await signpost(['sql', 'SELECT 1', '--format', 'xml']);
    expect(format.code).toBe(2);
    expect(format.stderr).toContain('--format takes JSONEachRow, CSV, Parquet');
    const org = await signpost(['sql', 'SELECT 1', '--org', 'abc']);
    expect(org.code).toBe(2);
    expect(org.stderr).toContain('--org takes a positive whole number');
  });
});

describe('import', () => {
  const links = Array.from({ length: 5 }, (_, i) => ({
    id: `cli${i}`,
    code: `cli-import-${i}`,
    url: `https://example.com/cli/${i}`,
    title: `CLI ${i}`,
    tags: [],
    expiresAt: null,
    maxVisits: null,
    createdAt: '2024-05-06T07:08:09.000Z',
  }));

  it('starts the job, shows its progress on stderr a line per change, then the job; --json prints it as JSON', async () => {
    const fixture = await startImportFixture('shlink', 'cli-shlink-key', links);
    try {
      const org = await svc.createOrganization('CLI importer', 'BUSINESS');
      const shlinkImport = [
        'import',
        'shlink',
        '--org',
        String(org.id),
        '--token',
        'cli-shlink-key',
        '--url',
        fixture.url,
      ];
      const run = await signpost(shlinkImport);
      expect(run.code, run.stderr).toBe(0);
      const progress = run.stderr.trim().split('\n');
      expect(progress[0]).toMatch(/^import \d+ from shlink: queued, imported 0, skipped 0, failed 0$/);
      expect(progress.at(-1)).toMatch(
        /^import \d+ from shlink: \[#{24}\] 100% 5\/5 completed, imported 5, skipped 0, failed 0$/,
      );
      expect(new Set(progress).size).toBe(progress.length);
      expect(fields(run.stdout)).toMatchObject({ source: 'shlink', status: 'completed', imported: '5', skipped: '0' });
      expect(run.stdout + run.stderr).not.toContain('cli-shlink-key');

      const again = await signpost([...shlinkImport, '--json']);
      expect(again.code, again.stderr).toBe(0);
      expect(JSON.parse(again.stdout)).toMatchObject({ status: 'completed', imported: 0, skipped: 5 });
    } finally {
      await fixture.close();
    }
  });

  it('exits 1 with the reason when the token is refused; a wrong source is a usage error', async () => {
    const fixture = await startImportFixture('kutt', 'cli-kutt-key', links);
    try {
      const org = await svc.createOrganization('CLI refused importer');
      const run = await signpost(['import', 'kutt', '--org', String(org.id), '--token', 'nope', '--url', fixture.url]);
      expect(run.code).toBe(1);
      expect(fields(run.stdout)).toMatchObject({ status: 'failed' });
      expect(run.stderr).toContain(
        'signpost: the import failed: the token was refused by Kutt (HTTP 401: Unauthorized)',
      );
      const wrong = await signpost(['import', 'tinyurl', '--org', String(org.id), '--token', 'x']);
      expect(wrong.code).toBe(2);
      expect(wrong.stderr).toContain('SOURCE is one of bitly, shlink, kutt, yourls, dub, rebrandly');
    } finally {
      await fixture.close();
    }
  });

  it('import csv sends the file as a job and follows it; the refused row is counted', async () => {
    const org = await svc.createOrganization('CLI CSV importer', 'BUSINESS');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'signpost-cli-csv-'));
    try {
      const file = path.join(dir, 'links.csv');
      fs.writeFileSync(
        file,
        'url,customAlias\nhttps://example.com/cli-csv/1,cli-csv-1\nnot a url,\nhttps://example.com/cli-csv/3,\n',
      );
      const run = await signpost(['import', 'csv', '--org', String(org.id), '--file', file]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr.trim().split('\n').at(-1)).toMatch(
        /^import \d+ from csv: \[#{24}\] 100% 3\/3 completed, imported 2, skipped 0, failed 1$/,
      );
      expect(fields(run.stdout)).toMatchObject({ source: 'csv', url: 'links.csv', status: 'completed' });
      const missing = await signpost(['import', 'csv', '--org', String(org.id), '--file', path.join(dir, 'none.csv')]);
      expect(missing.code).toBe(2);
      expect(missing.stderr).toContain('cannot read --file');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('failures', () => {
  it('a wrong token: exit 1, the API message and code on stderr, nothing on stdout', async () => {
    const run = await signpost(['org', 'show', '1'], { SIGNPOST_ADMIN_TOKEN: 'not-the-token' });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('ADMIN_TOKEN_INVALID');
    expect(run.stderr).toContain('operator token');
    expectNoStackTrace(run);
  });

  it('a missing token: exit 1 with a one-line explanation', async () => {
    const run = await signpost(['org', 'show', '1'], { SIGNPOST_ADMIN_TOKEN: undefined });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('SIGNPOST_ADMIN_TOKEN');
    expectNoStackTrace(run);
  });

  it('an unreachable server: exit 1 naming the address', async () => {
    const closedPort = await new Promise<number>((resolve) => {
      const server = net.createServer().listen(0, '127.0.0.1', () => {
        const { port } = server.address() as net.AddressInfo;
        server.close(() => resolve(port));
      });
    });
    const url = `http://127.0.0.1:${closedPort}`;
    const run = await signpost(['org', 'show', '1'], { SIGNPOST_URL: url });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain(`cannot reach Signpost at ${url}`);
    expectNoStackTrace(run);
  });

  it('wrong usage: exit 2 and a pointer to the help; help itself succeeds', async () => {
    const missing = await signpost(['org', 'plan', '1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--plan');

    const help = await signpost(['--help'], { SIGNPOST_ADMIN_TOKEN: undefined });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('signpost org create --name NAME');
  });

  it('--version prints the version of the package, without a token or a server', async () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    const run = await signpost(['--version'], { SIGNPOST_ADMIN_TOKEN: undefined, SIGNPOST_URL: 'http://127.0.0.1:9' });
    expect(run).toEqual({ code: 0, stdout: `signpost ${version}\n`, stderr: '' });
  });
});
