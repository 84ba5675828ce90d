// Configuration from the environment: the documented defaults, TRUST_PROXY forms, the ClickHouse
// database, and refusals that name the variable. Every test passes its own env object.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, configVariables, loadConfig } from '../../src/shared/config.js';

/** The ConfigError loadConfig throws for `env`. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return err as ConfigError;
  }
  throw new Error(`loadConfig accepted ${JSON.stringify(env)}`);
}

describe('defaults', () => {
  it('runs embedded on 127.0.0.1:8080 with ./data when nothing is set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      server: { port: 8080, host: '127.0.0.1', publicBaseUrl: 'http://localhost:8080', trustProxy: false },
      stores: {
        dataDir: path.resolve('data'),
        databaseUrl: undefined,
        clickhouseUrl: undefined,
        clickhouseDatabase: 'signpost',
      },
      sdk: { rateLimitPerSecond: 100, keylessRateLimitPerSecond: 20, keylessRateLimitBurst: 100 },
      // Events reach the bus (durable: the log or a JetStream ack) within a few milliseconds.
      bus: {
        natsUrl: undefined,
        natsNamespace: 'signpost',
        eventBatchDelayMs: 5,
        eventWriteIntervalMs: 1_000,
        fsyncIntervalMs: 1_000,
      },
      security: { adminToken: undefined, production: false },
      webhooks: { allowInsecure: false },
      domains: { cnameTarget: 'cname.localhost' },
    });
    expect(path.isAbsolute(config.stores.dataDir)).toBe(true);
  });

  it('reads BUS_FSYNC_INTERVAL_MS, 0 meaning a sync before every publish is acknowledged', () => {
    expect(loadConfig({ BUS_FSYNC_INTERVAL_MS: '250' }).bus.fsyncIntervalMs).toBe(250);
    expect(loadConfig({ BUS_FSYNC_INTERVAL_MS: '0' }).bus.fsyncIntervalMs).toBe(0);
    expect(loadConfig({ EVENT_BATCH_DELAY_MS: '50' }).bus.eventBatchDelayMs).toBe(50);
  });

  it('derives PUBLIC_BASE_URL from PORT, and takes an explicit one without its trailing slash', () => {
    expect(loadConfig({ PORT: '3000' }).server.publicBaseUrl).toBe('http://localhost:3000');
    const config = loadConfig({ PORT: '3000', PUBLIC_BASE_URL: 'https://go.example.com/' });
    expect(config.server.publicBaseUrl).toBe('https://go.example.com');
    expect(config.domains.cnameTarget).toBe('cname.go.example.com');
  });

  it('resolves DATA_DIR to an absolute path', () => {
    expect(loadConfig({ DATA_DIR: 'var/signpost' }).stores.dataDir).toBe(path.resolve('var/signpost'));
    expect(loadConfig({ DATA_DIR: '/srv/signpost/' }).stores.dataDir).toBe('/srv/signpost');
  });

  it('reads every documented variable', () => {
    const config = loadConfig({
      PORT: '9000',
      HOST: '0.0.0.0',
      DATABASE_URL: 'postgres://u:p@db:5432/signpost',
      NATS_URL: 'nats://a:4222,nats://b:4222',
      SIGNPOST_ADMIN_TOKEN: ' operator-token-0123456789abcdefghijkl ',
      SDK_RATE_LIMIT_PER_SECOND: '25',
      NODE_ENV: 'production',
      WEBHOOK_ALLOW_INSECURE: 'yes',
    });
    expect(config).toMatchObject({
      server: { port: 9000, host: '0.0.0.0' },
      stores: { databaseUrl: 'postgres://u:p@db:5432/signpost' },
      bus: { natsUrl: 'nats://a:4222,nats://b:4222' },
      security: { adminToken: 'operator-token-0123456789abcdefghijkl', production: true },
      sdk: { rateLimitPerSecond: 25 },
      webhooks: { allowInsecure: true },
    });
  });

  it('treats a variable set to blank as unset', () => {
    const config = loadConfig({
      PORT: '',
      HOST: ' ',
      DATA_DIR: '',
      PUBLIC_BASE_URL: '',
      SDK_RATE_LIMIT_PER_SECOND: '',
      LOG_LEVEL: '',
      SIGNPOST_ADMIN_TOKEN: '  ',
    });
    expect(config).toMatchObject({
      server: { port: 8080, host: '127.0.0.1', publicBaseUrl: 'http://localhost:8080' },
      stores: { dataDir: path.resolve('data') },
      sdk: { rateLimitPerSecond: 100 },
      log: { level: 'info' },
      security: { adminToken: undefined },
    });
  });
});

describe('SDK rate limits', () => {
  it('gives keyless callers their own per-address rate and burst, the burst defaulting to the keyed limit', () => {
    expect(loadConfig({ SDK_RATE_LIMIT_PER_SECOND: '50', SDK_KEYLESS_RATE_LIMIT_PER_SECOND: '2.5' }).sdk).toEqual({
      rateLimitPerSecond: 50,
      keylessRateLimitPerSecond: 2.5,
      keylessRateLimitBurst: 50,
    });
    expect(
      loadConfig({ SDK_KEYLESS_RATE_LIMIT_PER_SECOND: '5', SDK_KEYLESS_RATE_LIMIT_BURST: '10' }).sdk,
    ).toMatchObject({
      keylessRateLimitPerSecond: 5,
      keylessRateLimitBurst: 10,
    });
  });
});

describe('hardening settings', () => {
  it('refuses private link targets, limits failed authentications and knows no extra operator host by default', () => {
    expect(loadConfig({})).toMatchObject({
      security: { linkAllowPrivateTargets: false },
      authFailures: { limit: 20, windowSeconds: 300 },
      server: { operatorHosts: [] },
    });
  });

  it('reads LINK_ALLOW_PRIVATE_TARGETS, AUTH_FAILURE_LIMIT, AUTH_FAILURE_WINDOW_SECONDS and OPERATOR_HOSTS', () => {
    expect(
      loadConfig({
        LINK_ALLOW_PRIVATE_TARGETS: 'true',
        AUTH_FAILURE_LIMIT: '5',
        AUTH_FAILURE_WINDOW_SECONDS: '60',
        OPERATOR_HOSTS: ' Signpost.Internal , ,metrics.local',
      }),
    ).toMatchObject({
      security: { linkAllowPrivateTargets: true },
      authFailures: { limit: 5, windowSeconds: 60 },
      server: { operatorHosts: ['signpost.internal', 'metrics.local'] },
    });
  });
});

describe('TRUST_PROXY', () => {
  it('is off unless set', () => {
    expect(loadConfig({}).server.trustProxy).toBe(false);
    for (const off of ['false', 'no', 'off', '0', 'FALSE'])
      expect(loadConfig({ TRUST_PROXY: off }).server.trustProxy).toBe(false);
  });

  it('takes true, a hop count, or a list of addresses and CIDRs', () => {
    for (const on of ['true', 'TRUE', 'yes', 'on'])
      expect(loadConfig({ TRUST_PROXY: on }).server.trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).server.trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1,,::1' }).server.trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
    ]);
    expect(loadConfig({ TRUST_PROXY: '192.168.1.1' }).server.trustProxy).toEqual(['192.168.1.1']);
  });
});

describe('SIGNPOST_ROLES', () => {
  it('runs both roles by default and takes either alone, in any case and spacing', () => {
    expect(loadConfig({}).server.roles).toEqual({ api: true, worker: true });
    expect(loadConfig({ SIGNPOST_ROLES: 'Worker' }).server.roles).toEqual({ api: false, worker: true });
    expect(loadConfig({ SIGNPOST_ROLES: ' api , worker ' }).server.roles).toEqual({ api: true, worker: true });
    expect(loadConfig({ SIGNPOST_ROLES: 'api', NATS_URL: 'nats://127.0.0.1:4222' }).server.roles).toEqual({
      api: true,
      worker: false,
    });
  });

  it('refuses an api-only process on the in-process bus: nothing would write its events', () => {
    expect(configError({ SIGNPOST_ROLES: 'api' }).message).toMatch(/SIGNPOST_ROLES.*NATS_URL/);
  });
});

describe('ClickHouse database', () => {
  it('comes from the CLICKHOUSE_URL path, unless CLICKHOUSE_DATABASE says otherwise', () => {
    const url = 'http://user:pass@clickhouse:8123/analytics';
    expect(loadConfig({ CLICKHOUSE_URL: url }).stores).toMatchObject({
      clickhouseUrl: url,
      clickhouseDatabase: 'analytics',
    });
    expect(loadConfig({ CLICKHOUSE_URL: 'http://clickhouse:8123/' }).stores.clickhouseDatabase).toBe('signpost');
    expect(loadConfig({ CLICKHOUSE_URL: 'http://clickhouse:8123' }).stores.clickhouseDatabase).toBe('signpost');
    expect(loadConfig({ CLICKHOUSE_URL: url, CLICKHOUSE_DATABASE: 'other_db' }).stores.clickhouseDatabase).toBe(
      'other_db',
    );
  });

  it('takes a cluster for a server only: the embedded engine is one process', () => {
    const url = 'http://clickhouse:8123/signpost';
    expect(loadConfig({ CLICKHOUSE_URL: url }).stores.clickhouseCluster).toBeUndefined();
    expect(loadConfig({ CLICKHOUSE_URL: url, CLICKHOUSE_CLUSTER: ' events ' }).stores.clickhouseCluster).toBe('events');
    expect(configError({ CLICKHOUSE_CLUSTER: 'events' }).message).toMatch(/CLICKHOUSE_CLUSTER needs CLICKHOUSE_URL/);
    expect(configError({ CLICKHOUSE_URL: url, CLICKHOUSE_CLUSTER: 'a cluster' }).message).toContain(
      'CLICKHOUSE_CLUSTER',
    );
  });
});

describe('invalid values are refused with the variable named', () => {
  it.each([
    ['PORT', 'eighty'],
    ['PORT', '70000'],
    ['PORT', '-1'],
    ['PORT', '80.5'],
    ['SDK_RATE_LIMIT_PER_SECOND', '0'],
    ['SDK_RATE_LIMIT_PER_SECOND', 'lots'],
    ['SDK_KEYLESS_RATE_LIMIT_PER_SECOND', '0'],
    ['SDK_KEYLESS_RATE_LIMIT_BURST', '2.5'],
    ['LOG_LEVEL', 'verbose'],
    ['CLICKHOUSE_DATABASE', 'my-db'],
    ['CLICKHOUSE_DATABASE', 'x; DROP TABLE y'],
    ['NATS_NAMESPACE', 'a.b'],
    ['SHUTDOWN_TIMEOUT_MS', '0'],
    ['EVENT_BATCH_MAX', 'many'],
    ['EVENT_WRITE_INTERVAL_MS', '-5'],
    ['BUS_FSYNC_INTERVAL_MS', '-1'],
    ['BUS_FSYNC_INTERVAL_MS', 'often'],
    ['SIGNPOST_ROLES', 'api,cron'],
    ['SIGNPOST_ROLES', ' , '],
    ['PUBLIC_BASE_URL', 'go.example.com'],
    ['PUBLIC_BASE_URL', 'localhost:8080'],
    ['PUBLIC_BASE_URL', 'ftp://files.example.com'],
    ['CLICKHOUSE_URL', 'not a url'],
  ])('%s=%s', (name, value) => {
    const err = configError({ [name]: value });
    expect(err.message).toContain(name);
  });

  it('names CLICKHOUSE_URL when its path is not a usable database name, without echoing the password', () => {
    const err = configError({ CLICKHOUSE_URL: 'http://user:s3cret@clickhouse:8123/my-db' });
    expect(err.message).toContain('CLICKHOUSE_URL');
    expect(err.message).not.toContain('s3cret');
    expect(configError({ CLICKHOUSE_URL: 'http://user:s3cret@clickhouse :8123/x' }).message).not.toContain('s3cret');
  });

  it('refuses an operator token shorter than 32 characters, saying so without echoing it', () => {
    const err = configError({ SIGNPOST_ADMIN_TOKEN: 'change-me' });
    expect(err.message).toContain('SIGNPOST_ADMIN_TOKEN');
    expect(err.message).toContain('at least 32 characters');
    expect(err.message).not.toContain('change-me');
    expect(configError({ SIGNPOST_ADMIN_TOKEN: 'x'.repeat(31) }).message).toContain('SIGNPOST_ADMIN_TOKEN');
    expect(loadConfig({ SIGNPOST_ADMIN_TOKEN: 'x'.repeat(32) }).security.adminToken).toBe('x'.repeat(32));
  });

  it.each([
    ['AUTH_FAILURE_LIMIT', '0'],
    ['AUTH_FAILURE_WINDOW_SECONDS', 'soon'],
  ])('%s=%s', (name, value) => {
    expect(configError({ [name]: value }).message).toContain(name);
  });

  it('reports every invalid variable at once', () => {
    const err = configError({ PORT: 'x', LOG_LEVEL: 'loud' });
    expect(err.message).toContain('PORT');
    expect(err.message).toContain('LOG_LEVEL');
  });
});

describe('each section reads its variables', () => {
  it.each([
    ['PORT', '9090', 'server', 'port', 9090],
    ['OPERATOR_HOSTS', 'A.example, b.example', 'server', 'operatorHosts', ['a.example', 'b.example']],
    ['SHUTDOWN_TIMEOUT_MS', '1000', 'server', 'shutdownTimeoutMs', 1000],
    ['DATABASE_URL', ' postgres://db/x ', 'stores', 'databaseUrl', 'postgres://db/x'],
    ['GEOIP_DB', '/srv/geo.mmdb', 'stores', 'geoipDatabase', '/srv/geo.mmdb'],
    ['NATS_NAMESPACE', 'tenant_a', 'bus', 'natsNamespace', 'tenant_a'],
    ['EVENT_BATCH_MAX', '100', 'bus', 'eventBatchMax', 100],
    ['NODE_ENV', 'production', 'security', 'production', true],
    ['LINK_ALLOW_PRIVATE_TARGETS', 'on', 'security', 'linkAllowPrivateTargets', true],
    ['SDK_KEYLESS_RATE_LIMIT_BURST', '7', 'sdk', 'keylessRateLimitBurst', 7],
    ['CUSTOM_DOMAIN_CNAME_TARGET', 'edge.example.net', 'domains', 'cnameTarget', 'edge.example.net'],
    ['DOMAIN_VERIFY_MAX_MISSES', '3', 'domains', 'verifyMaxMisses', 3],
    ['LINK_CACHE_TTL_MS', '500', 'redirect', 'linkCacheTtlMs', 500],
    ['DEEP_LINK_TOKEN_BACKOFF_MS', '1500', 'redirect', 'deepLinkTokenBackoffMs', 1500],
    ['AD_PAGE_SECONDS', '0', 'redirect', 'adPageSeconds', 0],
    ['AD_PAGE_HTML', '<ins></ins>', 'redirect', 'adPageHtml', '<ins></ins>'],
    ['WEBHOOK_RETRY_WINDOW_MS', '60000', 'webhooks', 'retryWindowMs', 60_000],
    ['WEBHOOK_ENDPOINT_CONCURRENCY', '4', 'webhooks', 'endpointConcurrency', 4],
    ['SMTP_URL', 'smtp://mail:587', 'mail', 'smtpUrl', 'smtp://mail:587'],
    ['MAIL_FROM', 'Links <links@example.com>', 'mail', 'from', 'Links <links@example.com>'],
    ['SESSION_IDLE_MINUTES', '30', 'sessions', 'idleMs', 30 * 60_000],
    ['SESSION_MAX_AGE_HOURS', '2', 'sessions', 'absoluteMs', 2 * 3_600_000],
    ['SIGN_IN_LIMIT_PER_EMAIL', '2', 'signInLimits', 'perEmail', 2],
    ['SIGNUP_TERMS_URL', 'https://example.com/terms', 'signupTerms', 'url', 'https://example.com/terms'],
    ['CONSOLE_DIR', 'build/console', 'console', 'dir', path.resolve('build/console')],
    ['LOG_PRETTY', 'true', 'log', 'pretty', true],
    ['ACCESS_LOG_REDIRECT_SAMPLE', '1', 'log', 'accessLogRedirectSample', 1],
    ['METRICS_PORT', '9464', 'metrics', 'port', 9464],
    ['METRICS_TOKEN', 'metrics-token-0123', 'metrics', 'token', 'metrics-token-0123'],
  ])('%s=%s → %s.%s', (name, value, section, key, expected) => {
    const config = loadConfig({ [name]: value }) as unknown as Record<string, Record<string, unknown>>;
    expect(config[section]?.[key]).toEqual(expected);
  });

  it('derives the mail sender and the keyless burst from the settings they follow', () => {
    const config = loadConfig({
      PUBLIC_BASE_URL: 'https://go.example.com',
      SDK_KEYLESS_RATE_LIMIT_PER_SECOND: '150.5',
    });
    expect(config.mail.from).toBe('Signpost <no-reply@go.example.com>');
    expect(config.sdk.keylessRateLimitBurst).toBe(151);
    expect(config.signInLimits.windowSeconds).toBe(900);
  });

  it.each([
    ['AD_PAGE_SECONDS', '61'],
    ['ACCESS_LOG_REDIRECT_SAMPLE', '1.5'],
    ['METRICS_TOKEN', 'short'],
    ['METRICS_PORT', '65536'],
    ['SIGNUP_TERMS_URL', 'not a url'],
    ['SESSION_IDLE_MINUTES', '0'],
    ['WEBHOOK_POLL_MS', '0'],
    ['LINK_CACHE_MAX_ENTRIES', 'all'],
  ])('refuses %s=%s, naming it', (name, value) => {
    expect(configError({ [name]: value }).message).toMatch(new RegExp(`^invalid configuration: ${name}: `));
  });
});

describe('OpenID Connect sign-in', () => {
  const oidc = { OIDC_CLIENT_ID: 'signpost', OIDC_CLIENT_SECRET: 'secret' };

  it('is off until issuer, client id and secret are set, and then takes the documented defaults', () => {
    expect(loadConfig({}).oidc).toBeUndefined();
    expect(loadConfig({ ...oidc, OIDC_ISSUER: 'https://idp.example/realms/acme' }).oidc).toEqual({
      issuer: 'https://idp.example/realms/acme',
      clientId: 'signpost',
      clientSecret: 'secret',
      providerName: 'SSO',
      allowedDomains: [],
      joinOrganizationId: undefined,
      joinRole: 'analyst',
    });
  });

  it('reads the auto-join settings: domains in lower case, an organization and a member role', () => {
    const config = loadConfig({
      ...oidc,
      OIDC_ISSUER: 'https://accounts.google.com',
      OIDC_PROVIDER_NAME: 'Google',
      OIDC_ALLOWED_DOMAINS: ' Example.com, @example.co.kr ,',
      OIDC_JOIN_ORGANIZATION_ID: '42',
      OIDC_JOIN_ROLE: 'developer',
    });
    expect(config.oidc).toMatchObject({
      providerName: 'Google',
      allowedDomains: ['example.com', 'example.co.kr'],
      joinOrganizationId: 42,
      joinRole: 'developer',
    });
    expect(configError({ ...oidc, OIDC_ISSUER: 'https://a.example', OIDC_JOIN_ROLE: 'owner' }).message).toContain(
      'OIDC_JOIN_ROLE',
    );
  });

  it('accepts an http:// issuer only on a loopback address', () => {
    for (const issuer of [
      'http://localhost:9000',
      'http://127.0.0.1:9000/oidc',
      'http://127.8.0.1',
      'http://[::1]:9000',
    ]) {
      expect(loadConfig({ ...oidc, OIDC_ISSUER: issuer }).oidc?.issuer).toBe(issuer);
    }
    for (const issuer of ['http://idp.example', 'http://10.0.0.5:8080', 'http://idp.localhost.example.com']) {
      expect(configError({ ...oidc, OIDC_ISSUER: issuer }).message).toContain(
        'OIDC_ISSUER: http:// only on a loopback',
      );
    }
    expect(configError({ ...oidc, OIDC_ISSUER: 'ftp://idp.example' }).message).toContain('OIDC_ISSUER');
  });

  it('refuses a partial set, and domains to join without the organization they join', () => {
    expect(configError({ OIDC_ISSUER: 'https://idp.example' }).message).toContain('set all three');
    expect(configError({ OIDC_CLIENT_ID: 'x' }).message).toContain('set all three');
    expect(
      configError({ ...oidc, OIDC_ISSUER: 'https://idp.example', OIDC_ALLOWED_DOMAINS: 'example.com' }).message,
    ).toContain('OIDC_ALLOWED_DOMAINS needs OIDC_JOIN_ORGANIZATION_ID');
  });
});

describe('docs/configuration.md', () => {
  // The rows of its tables of service settings (`| variable | default | meaning |`), not the table
  // of variables other programs read.
  const documented = new Set<string>();
  let inSettingsTable = false;
  for (const line of fs
    .readFileSync(path.join(import.meta.dirname, '../../docs/configuration.md'), 'utf8')
    .split('\n')) {
    if (!line.startsWith('|')) inSettingsTable = false;
    else if (line.startsWith('| variable |')) inSettingsTable = line.startsWith('| variable | default |');
    else if (inSettingsTable) {
      for (const [, name] of (line.split('|')[1] ?? '').matchAll(/`([A-Z][A-Z0-9_]+)`/g)) documented.add(name ?? '');
    }
  }
  const declared = new Set(configVariables().map((v) => v.env));

  it('documents every variable the service reads', () => {
    expect([...declared].filter((name) => !documented.has(name))).toEqual([]);
  });

  it('documents no variable the service does not read', () => {
    expect([...documented].filter((name) => !declared.has(name))).toEqual([]);
  });

  it('gives every variable a description', () => {
    expect(configVariables().filter((v) => v.doc.trim() === '')).toEqual([]);
  });
});
