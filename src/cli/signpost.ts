// `signpost`: the operator's command line. A plain HTTP client of the operator API
// (/api/admin/v1), so it works against any running Signpost, local or remote, and
// never touches the stores itself.
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { parseArgs } from 'node:util';

const USAGE = `Usage: signpost <command> [options] [--json]
       signpost --version

Organizations
  signpost org create --name NAME [--plan PLAN]      new organization and its first API key
  signpost org list [--search TEXT] [--plan PLAN] [PAGING]
  signpost org show ORG_ID
  signpost org plan ORG_ID --plan PLAN [--quota N | --quota default]
  signpost org add-ons ORG_ID [--user-journey true|false] [--revenue-analytics true|false]
  signpost org ip-allowlist ORG_ID [IP|CIDR ...]     no addresses: allow all again
Service API keys
  signpost key create ORG_ID [--name NAME] [--scopes SCOPE,...] [--expires ISO_INSTANT]
                                                      no scopes: full access; read: every GET;
                                                      links, campaigns, apps, domains, statistics, webhooks:
                                                      RESOURCE:read or RESOURCE:write (write includes read);
                                                      users:read, account:read (plan and usage)
  signpost key list ORG_ID [PAGING]                   names and first characters, never the keys
  signpost key show ORG_ID KEY_ID
  signpost key delete ORG_ID KEY_ID
Custom domains
  signpost domain add ORG_ID DOMAIN_NAME
  signpost domain list [--org ORG_ID] [--status STATUS] [--deletion-requested true|false] [--search TEXT] [PAGING]
  signpost domain show DOMAIN_ID
  signpost domain status DOMAIN_ID STATUS            PENDING, VERIFIED, ACTIVE, FAILED or REVOKED
  signpost domain delete DOMAIN_ID                   completes a deletion request; refused while links use it
Webhooks
  signpost webhook set ORG_ID --url URL --secret SECRET [--events click,campaign,goal,funnel,session]
Single sign-on partners
  signpost partner create --name NAME --origins https://a,https://b --login-url URL --email EMAIL [--org ORG_ID] [--role ROLE]
  signpost partner list [PAGING]
  signpost partner show CLIENT_ID
  signpost partner secret CLIENT_ID                  a new shared secret; linked users keep working
  signpost partner delete CLIENT_ID
Console members and sign-in
  signpost member add ORG_ID --email EMAIL --role ROLE [--name NAME]   makes the account when new
  signpost member list ORG_ID
  signpost member remove ORG_ID USER_ID
  signpost login-link --email EMAIL                  a one-time console sign-in link (15 minutes)
Imports from other link services
  signpost import SOURCE --org ORG_ID --token TOKEN [--url URL] [--group GROUP_ID] [--workspace WORKSPACE_ID]
                                                     SOURCE: bitly, shlink, kutt, yourls, dub or rebrandly;
                                                     --url for a self-hosted service (required for shlink and
                                                     yourls), --group for a Bitly group, --workspace for Dub or
                                                     Rebrandly. Shows progress on stderr until the job ends;
                                                     exits 1 when it failed or was cancelled
  signpost import csv --org ORG_ID --file FILE       a CSV file of links (the columns of POST /urls/import,
                                                     up to 500,000 rows, 50 MB) as an import job; the same
                                                     progress and exit status
ClickHouse
  signpost sql "SELECT ..." [--format JSONEachRow|CSV|Parquet] [--org ORG_ID]
                                                     one read-only query; its rows on stdout

PLAN is FREE, PRO, BUSINESS or ENTERPRISE. ROLE is owner, admin, developer or analyst.
PAGING is [--page N] [--size N]: pages count from 0, 20 rows each by default (at most 100).
--json prints the API's JSON answer as it is; otherwise a key: value summary (lists: a table).

Environment
  SIGNPOST_URL           the service (default http://localhost:$PORT, PORT default 8080)
  SIGNPOST_ADMIN_TOKEN   the operator token the service was started with (required)

Exit status: 0 done, 1 refused by the API or the service unreachable, 2 wrong usage.`;

const REQUEST_TIMEOUT_MS = 10_000;

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
type Options = Record<string, string | boolean | undefined>;

interface Command {
  /** Names of the positional arguments; a trailing `...` takes the rest (possibly none). */
  args: string[];
  /** Options this command accepts besides --json. */
  options?: string[];
  required?: string[];
  method: Method;
  path(args: string[], opts: Options): string;
  /** Query parameters from the options; undefined ones are left out. */
  query?(opts: Options): Record<string, string | undefined>;
  /** A paged list: the columns of its table. */
  table?: string[];
  body?(opts: Options, args: string[]): unknown;
  /** The body is text sent as it is with this type (a file), not JSON. */
  contentType?: string;
  /** Said after the answer: secrets the API will never show again. */
  note?: string;
  /** What to say when the API answers with no body (204). */
  done?(args: string[]): string;
  /** The answer is data, written to stdout as it is (not JSON to summarise). */
  raw?: boolean;
  timeoutMs?: number;
  /** The answer is a job: follow it (GET this path of it) until it ends, showing its progress. */
  follow?(job: Job, opts: Options): string;
}

/** An import job as the operator API answers it. */
interface Job {
  id: number;
  source: string;
  status: string;
  total: number | null;
  imported: number;
  skipped: number;
  failed: number;
  failure: string | null;
}

class UsageError extends Error {}

const SHOWN_ONCE = 'The API key above is shown only this once: store it now.';
const SECRET_SHOWN_ONCE = 'The shared secret above is shown only this once: store it now.';

const PAGING = ['page', 'size'];

const COMMANDS: Record<string, Command> = {
  'org create': {
    args: [],
    options: ['name', 'plan'],
    required: ['name'],
    method: 'POST',
    path: () => '/organizations',
    body: (o) => ({ name: o.name, ...(o.plan === undefined ? {} : { plan: upper(o.plan) }) }),
    note: SHOWN_ONCE,
  },
  'org list': {
    args: [],
    options: ['search', 'plan', ...PAGING],
    method: 'GET',
    path: () => '/organizations',
    query: (o) => ({ search: text(o.search), plan: o.plan === undefined ? undefined : upper(o.plan), ...paging(o) }),
    table: ['id', 'name', 'plan', 'monthlyQuota', 'createdAt'],
  },
  'org show': { args: ['ORG_ID'], method: 'GET', path: ([org]) => `/organizations/${seg(org)}` },
  'org plan': {
    args: ['ORG_ID'],
    options: ['plan', 'quota'],
    required: ['plan'],
    method: 'PUT',
    path: ([org]) => `/organizations/${seg(org)}/plan`,
    body: (o) => ({ plan: upper(o.plan), ...(o.quota === undefined ? {} : { monthlyQuota: quota(o.quota) }) }),
  },
  'org add-ons': {
    args: ['ORG_ID'],
    options: ['user-journey', 'revenue-analytics'],
    method: 'PUT',
    path: ([org]) => `/organizations/${seg(org)}/add-ons`,
    body: (o) => ({
      ...(o['user-journey'] === undefined ? {} : { userJourney: bool('user-journey', o['user-journey']) }),
      ...(o['revenue-analytics'] === undefined
        ? {}
        : { revenueAnalytics: bool('revenue-analytics', o['revenue-analytics']) }),
    }),
  },
  'org ip-allowlist': {
    args: ['ORG_ID', 'IP...'],
    method: 'PUT',
    path: ([org]) => `/organizations/${seg(org)}/ip-allowlist`,
    body: (_o, [, ...ips]) => ({ ips: ips.flatMap(list) }),
  },
  'key create': {
    args: ['ORG_ID'],
    options: ['name', 'scopes', 'expires'],
    method: 'POST',
    path: ([org]) => `/organizations/${seg(org)}/api-keys`,
    body: (o) => ({
      ...(o.name === undefined ? {} : { name: o.name }),
      ...(o.scopes === undefined ? {} : { scopes: list(o.scopes) }),
      ...(o.expires === undefined ? {} : { expiresAt: o.expires }),
    }),
    note: SHOWN_ONCE,
  },
  'key list': {
    args: ['ORG_ID'],
    options: PAGING,
    method: 'GET',
    path: ([org]) => `/organizations/${seg(org)}/api-keys`,
    query: paging,
    table: ['id', 'name', 'prefix', 'scopes', 'expiresAt', 'createdAt'],
  },
  'key show': {
    args: ['ORG_ID', 'KEY_ID'],
    method: 'GET',
    path: ([org, key]) => `/organizations/${seg(org)}/api-keys/${seg(key)}`,
  },
  'key delete': {
    args: ['ORG_ID', 'KEY_ID'],
    method: 'DELETE',
    path: ([org, key]) => `/organizations/${seg(org)}/api-keys/${seg(key)}`,
    done: ([org, key]) => `deleted: API key ${key} of organization ${org}; it fails from now on`,
  },
  'domain add': {
    args: ['ORG_ID', 'DOMAIN_NAME'],
    method: 'POST',
    path: ([org]) => `/organizations/${seg(org)}/custom-domains`,
    body: (_o, [, domainName]) => ({ domainName }),
  },
  'domain list': {
    args: [],
    options: ['org', 'status', 'deletion-requested', 'search', ...PAGING],
    method: 'GET',
    path: () => '/custom-domains',
    query: (o) => ({
      organizationId: o.org === undefined ? undefined : String(positive('--org', o.org)),
      status: o.status === undefined ? undefined : upper(o.status),
      deletionRequested:
        o['deletion-requested'] === undefined ? undefined : String(bool('deletion-requested', o['deletion-requested'])),
      search: text(o.search),
      ...paging(o),
    }),
    table: ['id', 'domainName', 'organizationId', 'status', 'deletionRequested', 'createdAt'],
  },
  'domain show': { args: ['DOMAIN_ID'], method: 'GET', path: ([id]) => `/custom-domains/${seg(id)}` },
  'domain delete': {
    args: ['DOMAIN_ID'],
    method: 'DELETE',
    path: ([id]) => `/custom-domains/${seg(id)}`,
    done: ([id]) => `deleted: custom domain ${id}`,
  },
  'domain status': {
    args: ['DOMAIN_ID', 'STATUS'],
    method: 'PUT',
    path: ([id]) => `/custom-domains/${seg(id)}/status`,
    body: (_o, [, status]) => ({ status: upper(status) }),
  },
  'webhook set': {
    args: ['ORG_ID'],
    options: ['url', 'secret', 'events'],
    required: ['url', 'secret'],
    method: 'PUT',
    path: ([org]) => `/organizations/${seg(org)}/webhook`,
    body: (o) => ({ url: o.url, secret: o.secret, ...(o.events === undefined ? {} : { events: list(o.events) }) }),
  },
  'partner create': {
    args: [],
    required: ['name', 'origins', 'login-url', 'email'],
    method: 'POST',
    path: () => '/partners',
    body: (o) => ({
      serviceName: o.name,
      allowedOrigins: list(o.origins),
      loginUrl: o['login-url'],
      contactEmail: o.email,
      ...(o.org === undefined ? {} : { organizationId: id('org', o.org) }),
      ...(o.role === undefined ? {} : { defaultRole: String(o.role).toLowerCase() }),
    }),
    options: ['name', 'origins', 'login-url', 'email', 'org', 'role'],
    note: SECRET_SHOWN_ONCE,
  },
  'partner list': {
    args: [],
    options: PAGING,
    method: 'GET',
    path: () => '/partners',
    query: paging,
    table: ['clientId', 'serviceName', 'organizationId', 'defaultRole', 'createdAt'],
  },
  'partner show': { args: ['CLIENT_ID'], method: 'GET', path: ([clientId]) => `/partners/${seg(clientId)}` },
  'partner secret': {
    args: ['CLIENT_ID'],
    method: 'POST',
    path: ([clientId]) => `/partners/${seg(clientId)}/secret`,
    note: SECRET_SHOWN_ONCE,
  },
  'partner delete': {
    args: ['CLIENT_ID'],
    method: 'DELETE',
    path: ([clientId]) => `/partners/${seg(clientId)}`,
    done: ([clientId]) => `deleted: partner ${clientId}; its users keep their accounts`,
  },
  'member add': {
    args: ['ORG_ID'],
    options: ['email', 'role', 'name'],
    required: ['email', 'role'],
    method: 'POST',
    path: ([org]) => `/organizations/${seg(org)}/members`,
    body: (o) => ({
      email: o.email,
      role: String(o.role).toLowerCase(),
      ...(o.name === undefined ? {} : { name: o.name }),
    }),
  },
  'member list': { args: ['ORG_ID'], method: 'GET', path: ([org]) => `/organizations/${seg(org)}/members` },
  'member remove': {
    args: ['ORG_ID', 'USER_ID'],
    method: 'DELETE',
    path: ([org, user]) => `/organizations/${seg(org)}/members/${seg(user)}`,
    done: ([org, user]) => `removed: user ${user} from organization ${org}`,
  },
  'login-link': {
    args: [],
    options: ['email'],
    required: ['email'],
    method: 'POST',
    path: () => '/login-links',
    body: (o) => ({ email: o.email }),
    note: 'Open the URL in a browser within 15 minutes; it works once. It is a credential: do not share it.',
  },
  import: {
    args: ['SOURCE'],
    options: ['org', 'token', 'url', 'group', 'workspace'],
    required: ['org', 'token'],
    method: 'POST',
    path: (_args, o) => `/organizations/${positive('--org', o.org ?? '')}/imports`,
    body: (o, [source]) => ({
      source: importSource(source),
      token: o.token,
      ...(o.url === undefined ? {} : { url: o.url }),
      ...(o.group === undefined ? {} : { groupId: o.group }),
      ...(o.workspace === undefined ? {} : { workspaceId: o.workspace }),
    }),
    follow: (job, o) => `/organizations/${positive('--org', o.org ?? '')}/imports/${job.id}`,
  },
  'import csv': {
    args: [],
    options: ['org', 'file'],
    required: ['org', 'file'],
    method: 'POST',
    path: (_args, o) => `/organizations/${positive('--org', o.org ?? '')}/imports/csv`,
    query: (o) => ({ fileName: basename(String(o.file)) }),
    body: (o) => readCsvFile(String(o.file)),
    contentType: 'text/csv',
    // A file of up to 50 MB goes up in the first call.
    timeoutMs: 120_000,
    follow: (job, o) => `/organizations/${positive('--org', o.org ?? '')}/imports/${job.id}`,
  },
  sql: {
    args: ['QUERY'],
    options: ['format', 'org'],
    method: 'POST',
    path: () => '/sql',
    body: (o, [query]) => ({
      query,
      ...(o.format === undefined ? {} : { format: sqlFormat(o.format) }),
      ...(o.org === undefined ? {} : { organizationId: positive('--org', o.org) }),
    }),
    raw: true,
    // The service stops a query at 30 s.
    timeoutMs: 45_000,
  },
};

// Path segments come from the command line; encoding keeps a stray `/` or `?` from retargeting the call.
const seg = (value: string | undefined) => encodeURIComponent(value ?? '');
const upper = (value: unknown) => String(value).toUpperCase();
const list = (value: unknown) =>
  String(value)
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

const text = (value: string | boolean | undefined) => (value === undefined ? undefined : String(value));

/** --page (from 0) and --size, checked here so a typo is a usage error, not a 400. */
function paging(o: Options): Record<string, string | undefined> {
  const page =
    o.page === undefined
      ? undefined
      : /^\d+$/.test(String(o.page))
        ? String(o.page)
        : usageError('--page takes a whole number (pages count from 0)');
  const size = o.size === undefined ? undefined : String(positive('--size', o.size));
  return { page, size };
}

function usageError(message: string): never {
  throw new UsageError(message);
}

function id(name: string, value: unknown): number {
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  throw new UsageError(`--${name} takes a number`);
}

function bool(name: string, value: unknown): boolean {
  if (value === 'true' || value === 'false') return value === 'true';
  throw new UsageError(`--${name} takes true or false`);
}

/** `default` sends null: the API's way back to the plan's own quota. */
function quota(value: unknown): number | null {
  if (value === 'default') return null;
  if (typeof value === 'string' && /^\d+$/.test(value)) return Number(value);
  throw new UsageError('--quota takes a whole number or "default"');
}

const IMPORT_SOURCES = ['bitly', 'shlink', 'kutt', 'yourls', 'dub', 'rebrandly'];

function importSource(value: string | undefined): string {
  const source = String(value).toLowerCase();
  if (!IMPORT_SOURCES.includes(source)) throw new UsageError(`SOURCE is one of ${IMPORT_SOURCES.join(', ')}`);
  return source;
}

function readCsvFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (err) {
    throw new UsageError(`cannot read --file ${file}: ${(err as NodeJS.ErrnoException).code ?? String(err)}`);
  }
}

function sqlFormat(value: string | boolean): string {
  const formats = ['JSONEachRow', 'CSV', 'Parquet'];
  const found = formats.find((f) => f.toLowerCase() === String(value).toLowerCase());
  if (!found) throw new UsageError(`--format takes ${formats.join(', ')}`);
  return found;
}

function positive(name: string, value: string | boolean): number {
  if (typeof value === 'string' && /^[1-9]\d*$/.test(value)) return Number(value);
  throw new UsageError(`${name} takes a positive whole number`);
}

/** Runs a parse, turning whatever it throws into a UsageError (the command line was wrong). */
function refusedAsUsage<T>(parse: () => T): T {
  try {
    return parse();
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

function parse(argv: string[]): {
  help: boolean;
  json: boolean;
  name: string;
  command: Command | undefined;
  opts: Options;
  args: string[];
} {
  // Every option any command takes is parsed; checkUsage then refuses those this command does not.
  const stringOptions = [...new Set(Object.values(COMMANDS).flatMap((c) => c.options ?? []))];
  const { values, positionals } = refusedAsUsage(() =>
    parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean' },
        ...Object.fromEntries(stringOptions.map((o) => [o, { type: 'string' as const }])),
      },
    }),
  );
  const help = values.help === true || positionals[0] === 'help';
  // One-word commands (login-link) and two-word ones (org create); `import csv` before `import SOURCE`.
  const words =
    positionals[0] !== undefined && COMMANDS[positionals[0]] && !COMMANDS[positionals.slice(0, 2).join(' ')] ? 1 : 2;
  const name = positionals.slice(0, words).join(' ');
  return {
    help,
    json: values.json === true,
    name,
    command: COMMANDS[name],
    opts: values,
    args: positionals.slice(words),
  };
}

function checkUsage(name: string, command: Command, opts: Options, args: string[]): void {
  const allowed = new Set(['json', 'help', ...(command.options ?? [])]);
  const stray = Object.keys(opts).find((o) => opts[o] !== undefined && !allowed.has(o));
  if (stray) throw new UsageError(`signpost ${name} does not take --${stray}`);
  const missing = (command.required ?? []).find((o) => opts[o] === undefined || opts[o] === '');
  if (missing) throw new UsageError(`signpost ${name} needs --${missing}`);
  const variadic = command.args.at(-1)?.endsWith('...') === true;
  const fixed = variadic ? command.args.length - 1 : command.args.length;
  if (args.length < fixed || (!variadic && args.length > fixed)) {
    throw new UsageError(
      `usage: signpost ${name} ${command.args.map((a) => (a.endsWith('...') ? `[${a}]` : a)).join(' ')}`.trimEnd(),
    );
  }
}

/** key: value lines; nested objects flatten to dotted keys so every line stays greppable. */
function summarize(value: unknown, prefix = ''): string[] {
  // A list of records (members, partners): one block of lines each, numbered.
  if (Array.isArray(value) && value.some((v) => v !== null && typeof v === 'object')) {
    return value.flatMap((v, i) => summarize(v, prefix ? `${prefix}.${i}` : String(i)));
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const shown =
      value === null ? '-' : Array.isArray(value) ? (value.length === 0 ? '(none)' : value.join(', ')) : String(value);
    return [`${prefix || 'result'}: ${shown}`];
  }
  return Object.entries(value).flatMap(([key, inner]) => summarize(inner, prefix ? `${prefix}.${key}` : key));
}

/** A page of records as aligned columns, then where the page stands. */
function tabulate(answer: unknown, columns: string[]): string[] {
  const page = answer as {
    content?: Record<string, unknown>[];
    page?: number;
    totalPages?: number;
    totalElements?: number;
  };
  if (!Array.isArray(page.content)) return summarize(answer);
  const cell = (v: unknown) =>
    v === null || v === undefined || (Array.isArray(v) && v.length === 0)
      ? '-'
      : Array.isArray(v)
        ? v.join(',')
        : String(v);
  const rows = [columns, ...page.content.map((r) => columns.map((c) => cell(r[c])))];
  const widths = columns.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  const lines = rows.map((r) => r.map((v, i) => (i === r.length - 1 ? v : v.padEnd(widths[i]!))).join('  '));
  const total = page.totalElements ?? page.content.length;
  const pages = page.totalPages ?? 1;
  const where = pages > 1 ? `; page ${page.page ?? 0} of 0..${pages - 1} (--page N)` : '';
  return [...(page.content.length === 0 ? [] : lines), `${total} in all${where}`];
}

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

function baseUrl(): string {
  const url = process.env.SIGNPOST_URL?.trim() || `http://localhost:${process.env.PORT?.trim() || '8080'}`;
  try {
    return new URL(url).toString().replace(/\/+$/, '');
  } catch {
    throw new UsageError(`SIGNPOST_URL is not a URL: ${url}`);
  }
}

/** fetch's own errors hide the useful part (ECONNREFUSED, ENOTFOUND) in `cause`. */
function describeNetworkError(err: unknown, base: string, timeoutMs: number): string {
  if (err instanceof Error && err.name === 'TimeoutError') {
    return `no answer from ${base} within ${timeoutMs / 1000} s`;
  }
  const cause = err instanceof Error ? (err.cause as { code?: string; message?: string } | undefined) : undefined;
  const reason = cause?.code ?? cause?.message ?? (err instanceof Error ? err.message : String(err));
  return `cannot reach Signpost at ${base} (${reason}); is it running? Set SIGNPOST_URL to its address`;
}

type Called =
  | { ok: true; response: Response; bytes: Buffer; text: string; answer: unknown }
  | { ok: false; exit: number };

/** One call of the operator API; a refusal or an unreachable service is said on stderr (exit 1). */
async function callApi(req: {
  base: string;
  token: string;
  method: Method;
  url: string;
  body: unknown;
  contentType?: string | undefined;
  timeoutMs: number;
}): Promise<Called> {
  let response: Response;
  let bytes: Buffer;
  try {
    response = await fetch(req.url, {
      method: req.method,
      headers: {
        authorization: `Bearer ${req.token}`,
        accept: 'application/json',
        ...(req.body === undefined ? {} : { 'content-type': req.contentType ?? 'application/json' }),
      },
      ...(req.body === undefined ? {} : { body: req.contentType ? String(req.body) : JSON.stringify(req.body) }),
      signal: AbortSignal.timeout(req.timeoutMs),
    });
    bytes = Buffer.from(await response.arrayBuffer());
  } catch (err) {
    process.stderr.write(`signpost: ${describeNetworkError(err, req.base, req.timeoutMs)}\n`);
    return { ok: false, exit: 1 };
  }
  const text = bytes.toString('utf8');
  let answer: unknown;
  try {
    answer = text === '' ? undefined : JSON.parse(text);
  } catch {
    answer = undefined;
  }
  if (!response.ok) {
    const error = answer as { message?: unknown; code?: unknown } | undefined;
    const message = typeof error?.message === 'string' ? error.message : `${response.status} ${response.statusText}`;
    const code = typeof error?.code === 'string' ? error.code : `HTTP ${response.status}`;
    // With no admin token configured the service hides the whole operator API behind 404s.
    const hint = code === 'ROUTE_NOT_FOUND' ? '; is SIGNPOST_ADMIN_TOKEN set on the service?' : '';
    process.stderr.write(`signpost: ${message} (${code})${hint}\n`);
    return { ok: false, exit: 1 };
  }
  return { ok: true, response, bytes, text, answer };
}

const JOB_ENDED = new Set(['completed', 'failed', 'cancelled']);
const FOLLOW_POLL_MS = 500;
const BAR_WIDTH = 24;

/** Where a job stands, in one line: a bar when the source said how many links it has. */
function progressLine(job: Job): string {
  const done = job.imported + job.skipped + job.failed;
  const counts = `imported ${job.imported}, skipped ${job.skipped}, failed ${job.failed}`;
  if (job.total === null || job.total <= 0) return `import ${job.id} from ${job.source}: ${job.status}, ${counts}`;
  const share = Math.min(1, done / job.total);
  const filled = Math.round(share * BAR_WIDTH);
  const bar = `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
  return `import ${job.id} from ${job.source}: ${bar} ${Math.round(share * 100)}% ${done}/${job.total} ${job.status}, ${counts}`;
}

/**
 * Follows a job until it ends: its progress on stderr (on a terminal one line redrawn, otherwise a
 * line per change, for logs), then the job on stdout. Exit 0 only when it completed.
 */
async function followJob(
  first: Job,
  firstText: string,
  how: { json: boolean; poll: () => Promise<Called> },
): Promise<number> {
  const tty = process.stderr.isTTY === true;
  let job = first;
  let text = firstText;
  let shown = '';
  for (;;) {
    const line = progressLine(job);
    if (line !== shown) {
      process.stderr.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
      shown = line;
    }
    if (JOB_ENDED.has(job.status)) break;
    await new Promise((resolve) => setTimeout(resolve, FOLLOW_POLL_MS));
    const next = await how.poll();
    if (!next.ok) {
      if (tty) process.stderr.write('\n');
      return next.exit;
    }
    job = next.answer as Job;
    text = next.text;
  }
  if (tty) process.stderr.write('\n');
  process.stdout.write(how.json ? (text.endsWith('\n') ? text : `${text}\n`) : `${summarize(job).join('\n')}\n`);
  if (job.failure) process.stderr.write(`signpost: the import failed: ${job.failure}\n`);
  return job.status === 'completed' ? 0 : 1;
}

async function run(argv: string[]): Promise<number> {
  const { help, json, name, command, opts, args } = parse(argv);
  if (opts.version === true && !name) {
    process.stdout.write(`signpost ${version()}\n`);
    return 0;
  }
  if (help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (!command) {
    const what = name ? `unknown command: ${name}` : 'no command given';
    process.stderr.write(`signpost: ${what}\n\n${USAGE}\n`);
    return 2;
  }
  checkUsage(name, command, opts, args);
  const body = command.body?.(opts, args);
  const path = command.path(args, opts);
  const query = Object.entries(command.query?.(opts) ?? {}).filter((e): e is [string, string] => e[1] !== undefined);
  const search = query.length === 0 ? '' : `?${new URLSearchParams(query).toString()}`;

  const token = process.env.SIGNPOST_ADMIN_TOKEN?.trim();
  if (!token) {
    process.stderr.write(
      'signpost: SIGNPOST_ADMIN_TOKEN is not set; export the operator token the service runs with\n',
    );
    return 1;
  }
  const base = baseUrl();
  const timeoutMs = command.timeoutMs ?? REQUEST_TIMEOUT_MS;
  const call = (method: Method, path: string, payload?: unknown) =>
    callApi({
      base,
      token,
      method,
      url: `${base}/api/admin/v1${path}`,
      body: payload,
      contentType: payload === undefined ? undefined : command.contentType,
      timeoutMs,
    });
  const first = await call(command.method, `${path}${search}`, body);
  if (!first.ok) return first.exit;
  const { response, bytes, text, answer } = first;
  const { follow } = command;
  if (follow) return followJob(answer as Job, text, { json, poll: () => call('GET', follow(answer as Job, opts)) });

  if (command.raw) {
    process.stdout.write(bytes);
    return 0;
  }
  if (json) {
    if (text !== '') process.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    // stdout stays pure JSON for pipes; the warning goes where a person still sees it.
    if (command.note) process.stderr.write(`${command.note}\n`);
    return 0;
  }
  const readable = (a: unknown) => (command.table ? tabulate(a, command.table) : summarize(a));
  const lines = answer !== undefined ? readable(answer) : [command.done?.(args) ?? `done (HTTP ${response.status})`];
  if (command.note) lines.push('', command.note);
  process.stdout.write(`${lines.join('\n')}\n`);
  return 0;
}

try {
  process.exitCode = await run(process.argv.slice(2));
} catch (err) {
  // Wrong usage and anything unforeseen end in one line, never a stack trace.
  if (err instanceof UsageError) {
    process.stderr.write(`signpost: ${err.message}\nRun "signpost help" for usage.\n`);
    process.exitCode = 2;
  } else {
    process.stderr.write(`signpost: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  }
}
