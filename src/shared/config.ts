// The only reader of process.env: every setting the service takes, validated once.
import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';

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

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: optionalString,
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optionalString,
  CLICKHOUSE_URL: optionalString,
  CLICKHOUSE_DATABASE: optionalString.pipe(identifier.optional()),
  NATS_URL: optionalString,
  /** Prefix of stream, consumer and subject names, so several deployments can share one NATS. */
  NATS_NAMESPACE: optionalString.pipe(identifier.optional()),
  /** The operator token: at least 32 characters, or the service refuses to start. */
  SIGNPOST_ADMIN_TOKEN: optionalString.pipe(
    z.string().min(32, 'must be at least 32 characters (for example: openssl rand -hex 32)').optional(),
  ),
  SDK_RATE_LIMIT_PER_SECOND: z.coerce.number().int().positive().default(100),
  /**
   * Callers with the public app id alone (browsers, web SDK): requests a second per app and client
   * address, and the burst one address may send at once (default: the keyed per-app limit).
   */
  SDK_KEYLESS_RATE_LIMIT_PER_SECOND: z.coerce.number().positive().max(100_000).default(20),
  SDK_KEYLESS_RATE_LIMIT_BURST: z.coerce.number().int().positive().max(100_000).optional(),
  /** Fastify trustProxy: "true", a hop count, or a comma-separated list of addresses/CIDRs. */
  TRUST_PROXY: optionalString,
  PII_ENCRYPTION_KEY: optionalString,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_PRETTY: booleanFlag,
  /** Share of redirects that get an access-log line at info, 0 to 1 (every other request gets one). */
  ACCESS_LOG_REDIRECT_SAMPLE: z.coerce.number().min(0).max(1).default(0.01),
  NODE_ENV: z.string().default('development'),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().positive().default(25_000),
  EVENT_BATCH_MAX: z.coerce.number().int().positive().default(5_000),
  EVENT_BATCH_DELAY_MS: z.coerce.number().int().positive().default(5),
  EVENT_WRITE_INTERVAL_MS: z.coerce.number().int().nonnegative().default(1_000),
  /** In-process bus: how often its log is synced to the disk (what a power failure may lose); 0 every write. */
  BUS_FSYNC_INTERVAL_MS: z.coerce.number().int().nonnegative().default(1_000),
  /** What this process does: api (the HTTP surface), worker (bus consumers, background jobs). */
  SIGNPOST_ROLES: z
    .string()
    .default('api,worker')
    .transform((v) =>
      v
        .split(',')
        .map((r) => r.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(['api', 'worker'])).min(1, 'names no role')),
  /** Where customers point their domain's CNAME; default cname.<public host>. */
  CUSTOM_DOMAIN_CNAME_TARGET: optionalString,
  /** An mmdb country database of your own (GeoLite2-Country, DB-IP); default: the bundled CC0 one. */
  GEOIP_DB: optionalString,
  LINK_CACHE_MAX_ENTRIES: z.coerce.number().int().positive().default(100_000),
  LINK_CACHE_TTL_MS: z.coerce.number().int().positive().default(60_000),
  /** Seconds the ad interstitial waits before it continues, and the HTML of its ad slot. */
  AD_PAGE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
  AD_PAGE_HTML: optionalString,
  /** Development only: webhooks to plain-HTTP loopback URLs. */
  WEBHOOK_ALLOW_INSECURE: booleanFlag,
  /** DNS servers the custom-domain check asks, `host:port` comma-separated; default the system's. */
  DNS_RESOLVER: optionalString,
  /** How often each custom domain's CNAME is checked; 0 turns the background job off. */
  DOMAIN_VERIFY_INTERVAL_MS: z.coerce.number().int().min(0).default(300_000),
  /** Consecutive misses after which a PENDING domain is FAILED (288: a day at the default interval). */
  DOMAIN_VERIFY_MAX_MISSES: z.coerce.number().int().positive().default(288),
  /** Webhook delivery: deadline per attempt, retry back-off and window, when an endpoint is disabled, concurrency. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().positive().default(30_000),
  WEBHOOK_RETRY_MAX_DELAY_MS: z.coerce.number().int().positive().default(3_600_000),
  WEBHOOK_RETRY_WINDOW_MS: z.coerce.number().int().positive().default(86_400_000),
  WEBHOOK_DISABLE_AFTER_FAILURES: z.coerce.number().int().positive().default(50),
  WEBHOOK_CONCURRENCY: z.coerce.number().int().positive().default(32),
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().positive().default(2),
  WEBHOOK_POLL_MS: z.coerce.number().int().positive().default(1_000),
  /** Private deployments: short URLs and other redirect targets may name private addresses. */
  LINK_ALLOW_PRIVATE_TARGETS: booleanFlag,
  /** Failed authentications one client address may make per window before it gets 429. */
  AUTH_FAILURE_LIMIT: z.coerce.number().int().positive().default(20),
  AUTH_FAILURE_WINDOW_SECONDS: z.coerce.number().int().positive().default(300),
  /** Extra host names (comma-separated) that serve /docs, /metrics, /readyz and the operator API. */
  OPERATOR_HOSTS: optionalString,
  /** /metrics on a port of its own (then not on PORT), and a bearer token it requires. */
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
  /** Outgoing mail (sign-in links): an SMTP URL; unset, messages go to DATA_DIR/outbox. */
  SMTP_URL: optionalString,
  MAIL_FROM: optionalString,
  /** Console sessions end after this idle time, and in any case after their absolute age. */
  SESSION_IDLE_MINUTES: z.coerce.number().int().positive().default(720),
  SESSION_MAX_AGE_HOURS: z.coerce.number().int().positive().default(336),
  /** Sign-in attempts (link requests, link follows, partner callbacks) per client address, and links mailed per address, per 15 minutes. */
  SIGN_IN_LIMIT_PER_IP: z.coerce.number().int().positive().default(30),
  SIGN_IN_LIMIT_PER_EMAIL: z.coerce.number().int().positive().default(5),
  /** The terms a partner's new user accepts: Korean, English, and a link to the full text. */
  SIGNUP_TERMS_KO: optionalString,
  SIGNUP_TERMS_EN: optionalString,
  SIGNUP_TERMS_URL: optionalString.pipe(z.string().url().optional()),
  /** The built console app (default: dist/console of this checkout). */
  CONSOLE_DIR: optionalString,
});

export type TrustProxy = boolean | number | string[];

export interface Config {
  port: number;
  host: string;
  publicBaseUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  clickhouseUrl: string | undefined;
  clickhouseDatabase: string;
  natsUrl: string | undefined;
  natsNamespace: string;
  adminToken: string | undefined;
  sdkRateLimitPerSecond: number;
  /** Keyless SDK callers (app id alone): per app and client address. */
  sdkKeylessRateLimitPerSecond: number;
  sdkKeylessRateLimitBurst: number;
  trustProxy: TrustProxy;
  piiEncryptionKey: string | undefined;
  logLevel: string;
  accessLogRedirectSample: number;
  logPretty: boolean;
  production: boolean;
  shutdownTimeoutMs: number;
  eventBatchMax: number;
  eventBatchDelayMs: number;
  /** A ClickHouse writer inserts at most once per this span under steady traffic (0: at once). */
  eventWriteIntervalMs: number;
  /**
   * The in-process bus syncs its log to the disk at most this often (0: before each publish is
   * acknowledged). A process crash loses nothing written; a power failure at most this span.
   */
  busFsyncIntervalMs: number;
  /**
   * api: redirects and every API; worker: the bus consumers (ClickHouse writers, webhooks), the
   * webhook sender and the domain checks. A worker-only process serves /healthz, /readyz, /metrics.
   */
  roles: { api: boolean; worker: boolean };
  customDomainCnameTarget: string;
  geoipDatabase: string | undefined;
  linkCacheMaxEntries: number;
  linkCacheTtlMs: number;
  adPageSeconds: number;
  adPageHtml: string;
  webhookAllowInsecure: boolean;
  dnsResolvers: string[];
  domainVerifyIntervalMs: number;
  domainVerifyMaxMisses: number;
  webhookTimeoutMs: number;
  webhookRetryBaseMs: number;
  webhookRetryMaxDelayMs: number;
  webhookRetryWindowMs: number;
  webhookDisableAfterFailures: number;
  webhookConcurrency: number;
  webhookEndpointConcurrency: number;
  webhookPollMs: number;
  /** Redirect targets may be private, loopback or link-local addresses and local names. */
  linkAllowPrivateTargets: boolean;
  /** After `limit` failed authentications within `windowSeconds`, an address gets 429. */
  authFailures: { limit: number; windowSeconds: number };
  /** Lower-case host names besides PUBLIC_BASE_URL's that serve the operator surfaces. */
  operatorHosts: string[];
  /** /metrics on its own port; undefined: on PORT with everything else. */
  metricsPort: number | undefined;
  metricsToken: string | undefined;
  /** Outgoing mail: the SMTP server (undefined: the outbox in DATA_DIR) and the sender. */
  mail: { smtpUrl: string | undefined; from: string };
  sessions: { idleMs: number; absoluteMs: number };
  /** Per 15 minutes: sign-in attempts per client address, links mailed per address. */
  signInLimits: { perIp: number; perEmail: number; windowSeconds: number };
  /** The terms shown before a partner's new user signs up (undefined: the built-in text). */
  signupTerms: { ko: string | undefined; en: string | undefined; url: string | undefined };
  /** The built console app's folder; undefined: dist/console of this checkout. */
  consoleDir: string | undefined;
}

export class ConfigError extends Error {}

function parseTrustProxy(raw: string | undefined): TrustProxy {
  if (raw === undefined) return false;
  const lowered = raw.toLowerCase();
  if (['true', 'yes', 'on'].includes(lowered)) return true;
  if (['false', 'no', 'off', '0'].includes(lowered)) return false;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}

/** `1.1.1.1`, `10.0.0.2:5353`, `[::1]:53`: node:dns wants IP addresses, never names. */
function parseDnsResolvers(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((server) => {
      const match =
        /^(?:\[([0-9a-fA-F:.]+)\]|(\d{1,3}(?:\.\d{1,3}){3}))(?::(\d{1,5}))?$/.exec(server) ??
        /^([0-9a-fA-F:]*:[0-9a-fA-F:.]*)$/.exec(server);
      const ip = match?.[1] ?? match?.[2];
      const port = match?.[3] === undefined ? undefined : Number(match[3]);
      if (!ip || !isIP(ip) || (port !== undefined && (port < 1 || port > 65535))) {
        throw new ConfigError(
          `invalid configuration: DNS_RESOLVER: ${server} is not an IP address with an optional port`,
        );
      }
      return server;
    });
}

function databaseFromClickhouseUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('invalid configuration: CLICKHOUSE_URL is not a URL');
  }
  const name = parsed.pathname.replace(/^\/+/, '').split('/')[0];
  return name ? name : undefined;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // A variable set to blank (`PORT=` in a compose file) means unset, for every variable alike;
  // otherwise a blank PORT would be 0 (a random port) and a blank DATA_DIR the working directory.
  const parsed = envSchema.safeParse(
    Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v.trim() !== '')),
  );
  if (!parsed.success) {
    const detail = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid configuration: ${detail}`);
  }
  const e = parsed.data;
  const publicBaseUrl = (e.PUBLIC_BASE_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  // `localhost:8080` parses as a URL with the scheme `localhost:`; links need http(s).
  if (!URL.canParse(publicBaseUrl) || !['http:', 'https:'].includes(new URL(publicBaseUrl).protocol)) {
    throw new ConfigError(`invalid configuration: PUBLIC_BASE_URL is not an http(s) URL: ${publicBaseUrl}`);
  }
  if (!e.SIGNPOST_ROLES.includes('worker') && !e.NATS_URL) {
    throw new ConfigError(
      'invalid configuration: SIGNPOST_ROLES without worker needs NATS_URL (nothing else would write the events of the in-process bus)',
    );
  }
  const databaseInUrl = databaseFromClickhouseUrl(e.CLICKHOUSE_URL);
  const chDatabase = e.CLICKHOUSE_DATABASE ?? databaseInUrl ?? 'signpost';
  if (!identifier.safeParse(chDatabase).success) {
    throw new ConfigError(
      `invalid configuration: CLICKHOUSE_URL names the database ${chDatabase}: letters, digits and _ only`,
    );
  }
  return {
    port: e.PORT,
    host: e.HOST,
    publicBaseUrl,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    clickhouseUrl: e.CLICKHOUSE_URL,
    clickhouseDatabase: chDatabase,
    natsUrl: e.NATS_URL,
    natsNamespace: e.NATS_NAMESPACE ?? 'signpost',
    adminToken: e.SIGNPOST_ADMIN_TOKEN,
    sdkRateLimitPerSecond: e.SDK_RATE_LIMIT_PER_SECOND,
    sdkKeylessRateLimitPerSecond: e.SDK_KEYLESS_RATE_LIMIT_PER_SECOND,
    sdkKeylessRateLimitBurst:
      e.SDK_KEYLESS_RATE_LIMIT_BURST ??
      Math.max(e.SDK_RATE_LIMIT_PER_SECOND, Math.ceil(e.SDK_KEYLESS_RATE_LIMIT_PER_SECOND)),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    piiEncryptionKey: e.PII_ENCRYPTION_KEY,
    logLevel: e.LOG_LEVEL,
    logPretty: e.LOG_PRETTY,
    accessLogRedirectSample: e.ACCESS_LOG_REDIRECT_SAMPLE,
    production: e.NODE_ENV === 'production',
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_MS,
    eventBatchMax: e.EVENT_BATCH_MAX,
    eventBatchDelayMs: e.EVENT_BATCH_DELAY_MS,
    eventWriteIntervalMs: e.EVENT_WRITE_INTERVAL_MS,
    busFsyncIntervalMs: e.BUS_FSYNC_INTERVAL_MS,
    roles: { api: e.SIGNPOST_ROLES.includes('api'), worker: e.SIGNPOST_ROLES.includes('worker') },
    customDomainCnameTarget: e.CUSTOM_DOMAIN_CNAME_TARGET ?? `cname.${new URL(publicBaseUrl).hostname}`,
    webhookAllowInsecure: e.WEBHOOK_ALLOW_INSECURE,
    webhookTimeoutMs: e.WEBHOOK_TIMEOUT_MS,
    webhookRetryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
    webhookRetryMaxDelayMs: e.WEBHOOK_RETRY_MAX_DELAY_MS,
    webhookRetryWindowMs: e.WEBHOOK_RETRY_WINDOW_MS,
    webhookDisableAfterFailures: e.WEBHOOK_DISABLE_AFTER_FAILURES,
    webhookConcurrency: e.WEBHOOK_CONCURRENCY,
    webhookEndpointConcurrency: e.WEBHOOK_ENDPOINT_CONCURRENCY,
    webhookPollMs: e.WEBHOOK_POLL_MS,
    geoipDatabase: e.GEOIP_DB,
    linkCacheMaxEntries: e.LINK_CACHE_MAX_ENTRIES,
    linkCacheTtlMs: e.LINK_CACHE_TTL_MS,
    adPageSeconds: e.AD_PAGE_SECONDS,
    adPageHtml: e.AD_PAGE_HTML ?? '',
    dnsResolvers: parseDnsResolvers(e.DNS_RESOLVER),
    domainVerifyIntervalMs: e.DOMAIN_VERIFY_INTERVAL_MS,
    domainVerifyMaxMisses: e.DOMAIN_VERIFY_MAX_MISSES,
    linkAllowPrivateTargets: e.LINK_ALLOW_PRIVATE_TARGETS,
    authFailures: { limit: e.AUTH_FAILURE_LIMIT, windowSeconds: e.AUTH_FAILURE_WINDOW_SECONDS },
    metricsPort: e.METRICS_PORT,
    metricsToken: e.METRICS_TOKEN,
    operatorHosts: (e.OPERATOR_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    mail: { smtpUrl: e.SMTP_URL, from: e.MAIL_FROM ?? `Signpost <no-reply@${new URL(publicBaseUrl).hostname}>` },
    sessions: { idleMs: e.SESSION_IDLE_MINUTES * 60_000, absoluteMs: e.SESSION_MAX_AGE_HOURS * 3_600_000 },
    signInLimits: { perIp: e.SIGN_IN_LIMIT_PER_IP, perEmail: e.SIGN_IN_LIMIT_PER_EMAIL, windowSeconds: 900 },
    signupTerms: { ko: e.SIGNUP_TERMS_KO, en: e.SIGNUP_TERMS_EN, url: e.SIGNUP_TERMS_URL },
    consoleDir: e.CONSOLE_DIR === undefined ? undefined : path.resolve(e.CONSOLE_DIR),
  };
}
