// The only reader of process.env: every setting the service takes, declared once (its variable, its
// parsing and default, what it is for) in the section of the code that reads it, validated once.
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { isLoopbackAddress } from './public-address.js';
import { PARTNER_ROLES } from './roles.js';

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const booleanFlag = z
  .string()
  .optional()
  .transform((v) => v !== undefined && ['1', 'true', 'yes', 'on'].includes(v.trim().toLowerCase()));

/** An identifier we put into SQL text (database names): a closed alphabet, never user input. */
const identifier = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,62}$/, 'letters, digits and _ only');

/** A whole number above 0, `fallback` when unset. */
const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** A comma-separated list, each entry trimmed, empty entries dropped. */
const list = (raw: string | undefined): string[] =>
  (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

export type TrustProxy = boolean | number | string[];

function parseTrustProxy(raw: string | undefined): TrustProxy {
  if (raw === undefined) return false;
  const lowered = raw.toLowerCase();
  if (['true', 'yes', 'on'].includes(lowered)) return true;
  if (['false', 'no', 'off', '0'].includes(lowered)) return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  return list(raw);
}

/** `1.1.1.1`, `10.0.0.2:5353`, `[::1]:53`: node:dns wants IP addresses, never names. */
const dnsResolvers = optionalString.transform((raw, ctx) =>
  list(raw).filter((server) => {
    const match =
      /^(?:\[([0-9a-fA-F:.]+)\]|(\d{1,3}(?:\.\d{1,3}){3}))(?::(\d{1,5}))?$/.exec(server) ??
      /^([0-9a-fA-F:]*:[0-9a-fA-F:.]*)$/.exec(server);
    const ip = match?.[1] ?? match?.[2];
    const port = match?.[3] === undefined ? undefined : Number(match[3]);
    if (ip && isIP(ip) && (port === undefined || (port >= 1 && port <= 65535))) return true;
    ctx.addIssue({ code: 'custom', message: `${server} is not an IP address with an optional port` });
    return false;
  }),
);

/** One setting: the environment variable it comes from, its parsing and default, and what it does. */
interface Setting<S extends z.ZodType = z.ZodType> {
  env: string;
  doc: string;
  schema: S;
}
const env = <S extends z.ZodType>(name: string, doc: string, schema: S): Setting<S> => ({ env: name, doc, schema });

/**
 * Every setting, grouped by the part of the service that reads it. Defaults that depend on another
 * setting (PUBLIC_BASE_URL on PORT, the CNAME target and mail sender on the public host, the keyless
 * burst on the keyed limit, the ClickHouse database on its URL) are filled in by `resolve` below.
 */
const settings = {
  server: {
    port: env('PORT', 'HTTP port', z.coerce.number().int().min(0).max(65535).default(8080)),
    host: env('HOST', 'bind address', z.string().default('127.0.0.1')),
    publicBaseUrl: env('PUBLIC_BASE_URL', 'origin of short URLs; default http://localhost:$PORT', optionalString),
    /**
     * api: redirects and every API; worker: the bus consumers (ClickHouse writers, webhooks), the
     * webhook sender and the domain checks. A worker-only process serves /healthz, /readyz, /metrics.
     */
    roles: env(
      'SIGNPOST_ROLES',
      'what this process does: api (the HTTP surface), worker (bus consumers, background jobs)',
      z
        .string()
        .default('api,worker')
        .transform((v) => list(v.toLowerCase()))
        .pipe(z.array(z.enum(['api', 'worker'])).min(1, 'names no role'))
        .transform((roles) => ({ api: roles.includes('api'), worker: roles.includes('worker') })),
    ),
    shutdownTimeoutMs: env('SHUTDOWN_TIMEOUT_MS', 'how long a graceful shutdown may take', positiveInt(25_000)),
    trustProxy: env(
      'TRUST_PROXY',
      'Fastify trustProxy: "true", a hop count, or a comma-separated list of addresses/CIDRs',
      optionalString.transform(parseTrustProxy),
    ),
    /** Lower-case host names besides PUBLIC_BASE_URL's that serve the operator surfaces. */
    operatorHosts: env(
      'OPERATOR_HOSTS',
      'extra host names (comma-separated) that serve /docs, /metrics, /readyz and the operator API',
      optionalString.transform((v) => list(v?.toLowerCase())),
    ),
  },
  stores: {
    dataDir: env(
      'DATA_DIR',
      'files of the embedded stores, the outbox and the generated key',
      z
        .string()
        .default('./data')
        .transform((v) => path.resolve(v)),
    ),
    databaseUrl: env('DATABASE_URL', 'a PostgreSQL server; unset: PGlite', optionalString),
    clickhouseUrl: env('CLICKHOUSE_URL', 'a ClickHouse server; unset: chDB', optionalString),
    clickhouseDatabase: env(
      'CLICKHOUSE_DATABASE',
      'ClickHouse database; default the path of CLICKHOUSE_URL, else signpost',
      optionalString.pipe(identifier.optional()),
    ),
    /** The migrations create every table ON CLUSTER with replicated engines (src/olap/cluster-ddl.ts). */
    clickhouseCluster: env(
      'CLICKHOUSE_CLUSTER',
      'ClickHouse cluster (remote_servers) whose replicas get every table, replicated; unset: one server',
      optionalString.pipe(identifier.optional()),
    ),
    // The embedded engines' memory (docs/configuration.md says what each costs). Their own defaults
    // are sized for a server of their own: chDB's caches up to 5 GiB each, PGlite's 128 MB of
    // shared buffers written through at start.
    clickhouseEmbeddedMarkCacheMb: env(
      'CLICKHOUSE_EMBEDDED_MARK_CACHE_MB',
      "chDB's mark cache (mark_cache_size), MiB",
      positiveInt(64),
    ),
    clickhouseEmbeddedIndexCacheMb: env(
      'CLICKHOUSE_EMBEDDED_INDEX_CACHE_MB',
      "chDB's primary-key and skipping-index caches (primary_index_cache_size, index_mark_cache_size), MiB each",
      positiveInt(32),
    ),
    clickhouseEmbeddedMaxMemoryMb: env(
      'CLICKHOUSE_EMBEDDED_MAX_MEMORY_MB',
      "chDB's memory limit (max_server_memory_usage), MiB; 0: 90 % of the machine's memory",
      z.coerce.number().int().nonnegative().default(0),
    ),
    pgliteSharedBuffersMb: env(
      'PGLITE_SHARED_BUFFERS_MB',
      "PGlite's buffer cache (shared_buffers), MiB",
      positiveInt(16),
    ),
    piiEncryptionKey: env(
      'PII_ENCRYPTION_KEY',
      'keyring for personal data and secrets; default generated into DATA_DIR',
      optionalString,
    ),
    geoipDatabase: env(
      'GEOIP_DB',
      'an mmdb database of your own (GeoLite2 Country or City, DB-IP Lite); a City one adds cities to statistics, their filters and routing rules (GeoLite2 City: regions too); default: the bundled CC0 country one',
      optionalString,
    ),
  },
  bus: {
    natsUrl: env('NATS_URL', 'NATS with JetStream; unset: the in-process bus', optionalString),
    natsNamespace: env(
      'NATS_NAMESPACE',
      'prefix of stream, consumer and subject names, so several deployments can share one NATS',
      optionalString.pipe(identifier.optional()).transform((v) => v ?? 'signpost'),
    ),
    /** Copies JetStream keeps of each of Signpost's streams: 3 on a three-node cluster, 1 on one server. */
    natsStreamReplicas: env(
      'NATS_STREAM_REPLICAS',
      "replicas of Signpost's JetStream streams (1 to 5; a cluster needs at least that many servers)",
      z.coerce.number().int().min(1).max(5).default(1),
    ),
    eventBatchMax: env('EVENT_BATCH_MAX', 'events per bus message', positiveInt(5_000)),
    eventBatchDelayMs: env('EVENT_BATCH_DELAY_MS', 'the longest an event waits for its batch', positiveInt(5)),
    /** A ClickHouse writer inserts at most once per this span under steady traffic (0: at once). */
    eventWriteIntervalMs: env(
      'EVENT_WRITE_INTERVAL_MS',
      'a ClickHouse writer inserts at most once per this span',
      z.coerce.number().int().nonnegative().default(1_000),
    ),
    /**
     * The in-process bus syncs its log to the disk at most this often (0: before each publish is
     * acknowledged). A process crash loses nothing written; a power failure at most this span.
     */
    fsyncIntervalMs: env(
      'BUS_FSYNC_INTERVAL_MS',
      'in-process bus: how often its log is synced to the disk; 0 every write',
      z.coerce.number().int().nonnegative().default(1_000),
    ),
  },
  security: {
    production: env(
      'NODE_ENV',
      '"production": link targets may not name localhost',
      z
        .string()
        .default('development')
        .transform((v) => v === 'production'),
    ),
    /** The operator token: at least 32 characters, or the service refuses to start. */
    adminToken: env(
      'SIGNPOST_ADMIN_TOKEN',
      'the operator token (operator API and the signpost command)',
      optionalString.pipe(
        z.string().min(32, 'must be at least 32 characters (for example: openssl rand -hex 32)').optional(),
      ),
    ),
    /** Redirect targets may be private, loopback or link-local addresses and local names. */
    linkAllowPrivateTargets: env(
      'LINK_ALLOW_PRIVATE_TARGETS',
      'private deployments: links may name private addresses',
      booleanFlag,
    ),
  },
  /** After `limit` failed authentications within `windowSeconds`, an address gets 429. */
  authFailures: {
    limit: env(
      'AUTH_FAILURE_LIMIT',
      'failed authentications per client address per window before 429',
      positiveInt(20),
    ),
    windowSeconds: env('AUTH_FAILURE_WINDOW_SECONDS', 'the window of AUTH_FAILURE_LIMIT', positiveInt(300)),
  },
  sdk: {
    rateLimitPerSecond: env(
      'SDK_RATE_LIMIT_PER_SECOND',
      'requests a second per app, callers with the app key',
      positiveInt(100),
    ),
    /** Keyless SDK callers (app id alone): per app and client address. */
    keylessRateLimitPerSecond: env(
      'SDK_KEYLESS_RATE_LIMIT_PER_SECOND',
      'requests a second per app and client address, callers with the public app id alone',
      z.coerce.number().positive().max(100_000).default(20),
    ),
    keylessRateLimitBurst: env(
      'SDK_KEYLESS_RATE_LIMIT_BURST',
      'the burst one address may send at once; default the keyed per-app limit',
      z.coerce.number().int().positive().max(100_000).optional(),
    ),
  },
  domains: {
    cnameTarget: env(
      'CUSTOM_DOMAIN_CNAME_TARGET',
      "where customers point their domain's CNAME; default cname.<public host>",
      optionalString,
    ),
    dnsResolvers: env(
      'DNS_RESOLVER',
      "DNS servers the custom-domain check asks, host:port comma-separated; default the system's",
      dnsResolvers,
    ),
    verifyIntervalMs: env(
      'DOMAIN_VERIFY_INTERVAL_MS',
      "how often each custom domain's CNAME is checked; 0 turns the background job off",
      z.coerce.number().int().min(0).default(300_000),
    ),
    verifyMaxMisses: env(
      'DOMAIN_VERIFY_MAX_MISSES',
      'consecutive misses after which a PENDING domain is FAILED (288: a day at the default interval)',
      positiveInt(288),
    ),
  },
  redirect: {
    linkCacheMaxEntries: env('LINK_CACHE_MAX_ENTRIES', 'size of the in-process link cache', positiveInt(100_000)),
    linkCacheTtlMs: env('LINK_CACHE_TTL_MS', 'safety-net TTL of the link cache', positiveInt(60_000)),
    deepLinkTokenBackoffMs: env(
      'DEEP_LINK_TOKEN_BACKOFF_MS',
      'after a deep-link token write failed or was too slow, how long phones get the plain redirect without a try',
      positiveInt(5_000),
    ),
    adPageSeconds: env(
      'AD_PAGE_SECONDS',
      'seconds the ad interstitial waits before it continues',
      z.coerce.number().int().min(0).max(60).default(5),
    ),
    adPageHtml: env(
      'AD_PAGE_HTML',
      "the HTML of the ad interstitial's slot",
      optionalString.transform((v) => v ?? ''),
    ),
  },
  webhooks: {
    allowInsecure: env('WEBHOOK_ALLOW_INSECURE', 'development only: plain-HTTP loopback URLs', booleanFlag),
    timeoutMs: env('WEBHOOK_TIMEOUT_MS', 'deadline of one delivery attempt', positiveInt(10_000)),
    retryBaseMs: env('WEBHOOK_RETRY_BASE_MS', 'retry back-off base', positiveInt(30_000)),
    retryMaxDelayMs: env('WEBHOOK_RETRY_MAX_DELAY_MS', 'retry back-off cap', positiveInt(3_600_000)),
    retryWindowMs: env(
      'WEBHOOK_RETRY_WINDOW_MS',
      'how long a delivery is retried; how long an endpoint may fail before it is disabled',
      positiveInt(86_400_000),
    ),
    disableAfterFailures: env(
      'WEBHOOK_DISABLE_AFTER_FAILURES',
      'failed attempts in a row that disable an endpoint',
      positiveInt(50),
    ),
    concurrency: env('WEBHOOK_CONCURRENCY', 'deliveries in flight per instance', positiveInt(32)),
    endpointConcurrency: env('WEBHOOK_ENDPOINT_CONCURRENCY', 'deliveries in flight per endpoint', positiveInt(2)),
    pollMs: env('WEBHOOK_POLL_MS', 'how often an instance looks for due deliveries', positiveInt(1_000)),
  },
  /** Imports of links from other link services, run as background jobs. */
  imports: {
    allowInsecure: env(
      'IMPORT_ALLOW_INSECURE',
      'development only: imports from plain-HTTP loopback addresses',
      booleanFlag,
    ),
    pollMs: env('IMPORT_POLL_MS', 'how often an instance looks for an import job to run', positiveInt(5_000)),
    concurrency: env('IMPORT_CONCURRENCY', 'import jobs one instance runs at once', positiveInt(4)),
    timeoutMs: env('IMPORT_TIMEOUT_MS', "deadline of one request to the other service's API", positiveInt(30_000)),
  },
  /** Outgoing mail: the SMTP server (undefined: the outbox in DATA_DIR) and the sender. */
  mail: {
    smtpUrl: env('SMTP_URL', 'outgoing mail (sign-in links): an SMTP URL; unset, DATA_DIR/outbox', optionalString),
    from: env('MAIL_FROM', 'sender of that mail; default Signpost <no-reply@<public host>>', optionalString),
    apiKeyExpiryNoticeDays: env(
      'API_KEY_EXPIRY_NOTICE_DAYS',
      "days before a Service API key expires that its issuer (or the organization's owners) is mailed once; 0: never",
      z.coerce.number().int().min(0).max(365).default(7),
    ),
  },
  /** Console sessions end after this idle time, and in any case after their absolute age. */
  sessions: {
    idleMs: env(
      'SESSION_IDLE_MINUTES',
      'a console session ends after this idle time',
      positiveInt(720).transform((minutes) => minutes * 60_000),
    ),
    absoluteMs: env(
      'SESSION_MAX_AGE_HOURS',
      'a console session ends this long after sign-in',
      positiveInt(336).transform((hours) => hours * 3_600_000),
    ),
  },
  /** Per 15 minutes: sign-in attempts per client address, links mailed per address. */
  signInLimits: {
    perIp: env('SIGN_IN_LIMIT_PER_IP', 'sign-in attempts per client address per 15 minutes', positiveInt(30)),
    perEmail: env('SIGN_IN_LIMIT_PER_EMAIL', 'links mailed per address per 15 minutes', positiveInt(5)),
  },
  /**
   * Console sign-in through the company's OpenID Connect provider: on when issuer, client id and
   * secret are all set. New people of the listed email domains join one organization with one role.
   */
  oidc: {
    issuer: env(
      'OIDC_ISSUER',
      "the OpenID Connect provider's issuer URL (https, or http on a loopback address)",
      optionalString.pipe(z.url().optional()),
    ),
    clientId: env('OIDC_CLIENT_ID', 'the client id Signpost is registered under at the provider', optionalString),
    clientSecret: env('OIDC_CLIENT_SECRET', "that client's secret", optionalString),
    providerName: env(
      'OIDC_PROVIDER_NAME',
      'the name on the sign-in button ("Sign in with …")',
      optionalString.transform((v) => v ?? 'SSO'),
    ),
    allowedDomains: env(
      'OIDC_ALLOWED_DOMAINS',
      'email domains, comma-separated, whose unknown people join OIDC_JOIN_ORGANIZATION_ID at first sign-in',
      optionalString.transform((v) => list(v).map((domain) => domain.toLowerCase().replace(/^@/, ''))),
    ),
    joinOrganizationId: env(
      'OIDC_JOIN_ORGANIZATION_ID',
      'the organization people of OIDC_ALLOWED_DOMAINS join',
      z.coerce.number().int().positive().optional(),
    ),
    joinRole: env(
      'OIDC_JOIN_ROLE',
      'their role there: admin, developer or analyst',
      z.enum(PARTNER_ROLES).default('analyst'),
    ),
  },
  /** The terms shown before a partner's new user signs up (undefined: the built-in text). */
  signupTerms: {
    ko: env('SIGNUP_TERMS_KO', "the terms a partner's new user accepts, in Korean", optionalString),
    en: env('SIGNUP_TERMS_EN', "the terms a partner's new user accepts, in English", optionalString),
    url: env('SIGNUP_TERMS_URL', 'a link to the full terms', optionalString.pipe(z.string().url().optional())),
  },
  console: {
    /** The built console app's folder; undefined: dist/console of this checkout. */
    dir: env(
      'CONSOLE_DIR',
      'the built console app (default: dist/console of this checkout)',
      optionalString.transform((v) => (v === undefined ? undefined : path.resolve(v))),
    ),
  },
  log: {
    level: env(
      'LOG_LEVEL',
      'pino level',
      z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ),
    pretty: env('LOG_PRETTY', 'human-readable logs (development)', booleanFlag),
    accessLogRedirectSample: env(
      'ACCESS_LOG_REDIRECT_SAMPLE',
      'share of redirects that get an access-log line at info, 0 to 1 (every other request gets one)',
      z.coerce.number().min(0).max(1).default(0.01),
    ),
  },
  /** /metrics on its own port (undefined: on PORT with everything else), and the token it requires. */
  metrics: {
    port: env(
      'METRICS_PORT',
      '/metrics on a port of its own (then not on PORT)',
      z.coerce.number().int().min(0).max(65535).optional(),
    ),
    token: env(
      'METRICS_TOKEN',
      'a bearer token /metrics requires',
      optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
    ),
  },
} satisfies Record<string, Record<string, Setting>>;

type Settings = typeof settings;
type SectionSchema<T extends Record<string, Setting>> = z.ZodObject<{ [K in keyof T]: T[K]['schema'] }>;

const mapValues = <T extends object, R>(o: T, f: (v: T[keyof T]) => R): { [K in keyof T]: R } =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, f(v as T[keyof T])])) as { [K in keyof T]: R };

const sectionsSchema = z.object(
  mapValues(settings, (section: Record<string, Setting>) => z.object(mapValues(section, (s) => s.schema))),
) as unknown as z.ZodObject<{ [K in keyof Settings]: SectionSchema<Settings[K]> }>;

function databaseFromClickhouseUrl(url: string | undefined): string | undefined | Error {
  if (url === undefined) return undefined;
  if (!URL.canParse(url)) return new Error('CLICKHOUSE_URL is not a URL');
  const name = new URL(url).pathname.replace(/^\/+/, '').split('/')[0];
  return name ? name : undefined;
}

type OidcSettings = z.output<SectionSchema<Settings['oidc']>>;

/** Whether an issuer's host is this machine: localhost, 127.0.0.0/8 or ::1. */
const isLoopbackHost = (hostname: string): boolean => {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || isLoopbackAddress(host);
};

/**
 * OpenID Connect sign-in when issuer, client id and secret are all set (undefined when none is),
 * or why the settings are refused: a partial set, a plain-HTTP issuer off this machine, domains to
 * join without the organization they join.
 */
function oidcSettings(
  o: OidcSettings,
):
  | (Omit<OidcSettings, 'issuer' | 'clientId' | 'clientSecret'> &
      Record<'issuer' | 'clientId' | 'clientSecret', string>)
  | undefined
  | string {
  const { issuer, clientId, clientSecret } = o;
  if (!issuer && !clientId && !clientSecret) {
    return o.allowedDomains.length > 0
      ? 'OIDC_ALLOWED_DOMAINS needs OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET'
      : undefined;
  }
  if (!issuer || !clientId || !clientSecret)
    return 'OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET go together: set all three';
  const url = new URL(issuer);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    return `OIDC_ISSUER: http:// only on a loopback address (localhost, 127.0.0.1, [::1]); use https:// for ${url.host}`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'OIDC_ISSUER is not an http(s) URL';
  if (o.allowedDomains.length > 0 && o.joinOrganizationId === undefined) {
    return 'OIDC_ALLOWED_DOMAINS needs OIDC_JOIN_ORGANIZATION_ID (the organization they join)';
  }
  return { ...o, issuer, clientId, clientSecret };
}

/** The defaults that depend on other settings, and the rules that span two settings. */
const configSchema = sectionsSchema.transform((c, ctx) => {
  const refuse = (message: string) => {
    ctx.addIssue({ code: 'custom', message, path: [] });
    return z.NEVER;
  };
  const publicBaseUrl = (c.server.publicBaseUrl ?? `http://localhost:${c.server.port}`).replace(/\/+$/, '');
  // `localhost:8080` parses as a URL with the scheme `localhost:`; links need http(s).
  if (!URL.canParse(publicBaseUrl) || !['http:', 'https:'].includes(new URL(publicBaseUrl).protocol)) {
    return refuse(`PUBLIC_BASE_URL is not an http(s) URL: ${publicBaseUrl}`);
  }
  if (!c.server.roles.worker && !c.bus.natsUrl) {
    return refuse(
      'SIGNPOST_ROLES without worker needs NATS_URL (nothing else would write the events of the in-process bus)',
    );
  }
  const databaseInUrl = databaseFromClickhouseUrl(c.stores.clickhouseUrl);
  if (databaseInUrl instanceof Error) return refuse(databaseInUrl.message);
  const clickhouseDatabase = c.stores.clickhouseDatabase ?? databaseInUrl ?? 'signpost';
  if (!identifier.safeParse(clickhouseDatabase).success) {
    return refuse(`CLICKHOUSE_URL names the database ${clickhouseDatabase}: letters, digits and _ only`);
  }
  if (c.stores.clickhouseCluster && !c.stores.clickhouseUrl) {
    return refuse('CLICKHOUSE_CLUSTER needs CLICKHOUSE_URL (the embedded ClickHouse is one process, not a cluster)');
  }
  const oidc = oidcSettings(c.oidc);
  if (typeof oidc === 'string') return refuse(oidc);
  const publicHost = new URL(publicBaseUrl).hostname;
  return {
    ...c,
    server: { ...c.server, publicBaseUrl },
    stores: { ...c.stores, clickhouseDatabase },
    sdk: {
      ...c.sdk,
      keylessRateLimitBurst:
        c.sdk.keylessRateLimitBurst ?? Math.max(c.sdk.rateLimitPerSecond, Math.ceil(c.sdk.keylessRateLimitPerSecond)),
    },
    domains: { ...c.domains, cnameTarget: c.domains.cnameTarget ?? `cname.${publicHost}` },
    mail: { ...c.mail, from: c.mail.from ?? `Signpost <no-reply@${publicHost}>` },
    signInLimits: { ...c.signInLimits, windowSeconds: 900 },
    oidc,
  };
});

export type Config = z.output<typeof configSchema>;

export class ConfigError extends Error {}

/** Every environment variable the service reads, with its one-line description. */
export function configVariables(): { env: string; doc: string }[] {
  return Object.values(settings).flatMap((section: Record<string, Setting>) =>
    Object.values(section).map(({ env, doc }) => ({ env, doc })),
  );
}

/** `SECTION.key.rest` of a zod issue as the variable it came from (`PORT`, `SIGNPOST_ROLES.0`). */
function variableOf(issuePath: readonly PropertyKey[]): string {
  const [section, key, ...rest] = issuePath.map(String);
  const setting = (settings as Record<string, Record<string, Setting>>)[section ?? '']?.[key ?? ''];
  return [setting?.env ?? [section, key].filter(Boolean).join('.'), ...rest].join('.');
}

export function loadConfig(environment: NodeJS.ProcessEnv = process.env): Config {
  // A variable set to blank (`PORT=` in a compose file) means unset, for every variable alike;
  // otherwise a blank PORT would be 0 (a random port) and a blank DATA_DIR the working directory.
  const value = (name: string) => {
    const v = environment[name];
    return v === undefined || v.trim() === '' ? undefined : v;
  };
  const input = mapValues(settings, (section: Record<string, Setting>) => mapValues(section, (s) => value(s.env)));
  const parsed = configSchema.safeParse(input);
  if (!parsed.success) {
    const detail = parsed.error.issues
      .map((i) => (i.path.length === 0 ? i.message : `${variableOf(i.path)}: ${i.message}`))
      .join('; ');
    throw new ConfigError(`invalid configuration: ${detail}`);
  }
  return parsed.data;
}
