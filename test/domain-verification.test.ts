// Custom-domain DNS verification against a real DNS server on loopback (test/support/dns-server.ts),
// the service asking it through DNS_RESOLVER: PENDING → VERIFIED when the CNAME appears, FAILED
// after the misses, REVOKED when a verified record disappears (not on one miss), nothing counted
// for a resolver in trouble; a verified domain serves its links by Host, a revoked one stops.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDomainVerificationRepo } from '../src/oltp/domain-verification.repo.js';
import { backend } from './support/backend.js';
import { startDnsServer, type TestDnsServer } from './support/dns-server.js';
import { eventually, serviceForFile, startService, type TestService } from './support/service.js';

const PUBLIC_BASE_URL = 'https://sgnp.example';
const CNAME_TARGET = 'cname.sgnp.example';
const INTERVAL_MS = 150;
const MAX_MISSES = 4;

let dns: TestDnsServer;
let org: { id: number; apiKey: string };

beforeAll(async () => {
  dns = await startDnsServer();
});

afterAll(async () => {
  await dns?.close();
});

// Registered after the DNS server's hooks: started after it, stopped before it.
const svc = serviceForFile(() => ({
  PUBLIC_BASE_URL,
  DNS_RESOLVER: dns.address,
  DOMAIN_VERIFY_INTERVAL_MS: String(INTERVAL_MS),
  DOMAIN_VERIFY_MAX_MISSES: String(MAX_MISSES),
}));

beforeAll(async () => {
  org = await svc.createOrganization('Domains');
});

interface Domain {
  id: number;
  domainName: string;
  status: string;
  cnameRecordName: string | null;
  cnameRecordValue: string | null;
}

async function register(domainName: string): Promise<Domain> {
  const res = await svc.admin('POST', `/organizations/${org.id}/custom-domains`, { domainName });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as Domain;
}

async function statusOf(id: number): Promise<string> {
  const res = await svc.service('GET', `/custom-domains/${id}`, org.apiKey);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as Domain).status;
}

const waitForStatus = (id: number, status: string, timeoutMs = 10_000) =>
  eventually(async () => (await statusOf(id)) === status, timeoutMs, `domain ${id} ${status}`);

const bookkeeping = async (id: number) =>
  (await createDomainVerificationRepo({ sql: svc.container.postgres.sql }).checkRecord(id))!;

/** Waits until the job has checked the domain `n` more times (each check is one DNS question). */
async function checkedMore(name: string, n: number) {
  const start = dns.queries(name);
  await eventually(async () => dns.queries(name) >= start + n, 10_000, `${n} more checks of ${name}`);
}

describe(`custom-domain verification (${backend})`, () => {
  it('gives external domains the CNAME to create: their own name, pointing at the platform', async () => {
    const domain = await register('cname.shape.example');
    expect(domain).toMatchObject({
      status: 'PENDING',
      cnameRecordName: 'cname.shape.example',
      cnameRecordValue: CNAME_TARGET,
    });
  });

  it('keeps a domain PENDING while its record is absent, and verifies it once the CNAME appears', async () => {
    const domain = await register('links.appear.example');
    await checkedMore(domain.domainName, 2);
    expect(await statusOf(domain.id)).toBe('PENDING');
    const before = await bookkeeping(domain.id);
    expect(before.attempts).toBeGreaterThanOrEqual(2);
    expect(before.failures).toBeGreaterThanOrEqual(1);
    expect(before.lastCheckedAt).toBeInstanceOf(Date);
    expect(before.lastCheckResult).toBe('missing:no-such-name');

    // A CNAME to somewhere else is no verification either.
    dns.set(domain.domainName, { cname: 'elsewhere.example.net' });
    await checkedMore(domain.domainName, 1);
    await eventually(
      async () => (await bookkeeping(domain.id)).lastCheckResult === 'missing:wrong-target:elsewhere.example.net',
      5_000,
      'wrong target noted',
    );

    dns.set(domain.domainName, { cname: `${CNAME_TARGET}.` });
    await waitForStatus(domain.id, 'VERIFIED');
    const after = await bookkeeping(domain.id);
    expect(after.failures).toBe(0);
    expect(after.recordSeenAt).toBeInstanceOf(Date);
    expect(after.lastCheckResult).toBe('found');
    expect(after.attempts).toBeGreaterThan(before.attempts);
  });

  it(`fails a PENDING domain after ${MAX_MISSES} consecutive misses and stops checking it`, async () => {
    const domain = await register('never.configured.example');
    // A name that exists but has only an A record is a miss like a missing name.
    dns.set(domain.domainName, { a: '192.0.2.10' });
    await waitForStatus(domain.id, 'FAILED');
    const record = await bookkeeping(domain.id);
    expect(record.failures).toBe(MAX_MISSES);
    expect(record.attempts).toBe(MAX_MISSES);
    expect(record.lastCheckResult).toBe('missing:no-cname');
    const asked = dns.queries(domain.domainName);
    await new Promise((r) => setTimeout(r, INTERVAL_MS * 4));
    expect(dns.queries(domain.domainName)).toBe(asked);
    expect(await statusOf(domain.id)).toBe('FAILED');
  });

  it('counts no miss while the resolver cannot answer (SERVFAIL)', async () => {
    const domain = await register('flaky.resolver.example');
    dns.fail(domain.domainName);
    await checkedMore(domain.domainName, MAX_MISSES + 2);
    expect(await statusOf(domain.id)).toBe('PENDING');
    const record = await bookkeeping(domain.id);
    expect(record.failures).toBe(0);
    expect(record.attempts).toBe(0);
    expect(record.lastCheckResult).toBe('inconclusive:ESERVFAIL');
    dns.set(domain.domainName, { cname: CNAME_TARGET });
    await waitForStatus(domain.id, 'VERIFIED');
  });

  it("serves a verified domain's links by Host, keeps it through one miss, and revokes it when the record is gone", async () => {
    const domain = await register('go.revoke.example');
    const host = domain.domainName;
    dns.set(host, { cname: CNAME_TARGET });
    await waitForStatus(domain.id, 'VERIFIED');

    const created = await svc.service('POST', '/urls', org.apiKey, {
      url: 'https://shop.example/spring',
      customDomainName: host,
      customAlias: 'spring',
    });
    expect(created.statusCode, created.body).toBe(201);
    const visit = () =>
      svc.inject({
        method: 'GET',
        url: '/spring',
        headers: { host, 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0' },
      });
    const redirect = await visit();
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('https://shop.example/spring');

    // The operator connects the load balancer; the record keeps being watched.
    expect((await svc.admin('PUT', `/custom-domains/${domain.id}/status`, { status: 'ACTIVE' })).statusCode).toBe(200);

    // One miss, then the record answers again: the domain stays and the miss is forgotten.
    dns.remove(host);
    await eventually(async () => (await bookkeeping(domain.id)).failures >= 1, 5_000, 'a miss');
    dns.set(host, { cname: CNAME_TARGET });
    await eventually(async () => (await bookkeeping(domain.id)).failures === 0, 5_000, 'the record back');
    expect(await statusOf(domain.id)).toBe('ACTIVE');

    dns.remove(host);
    await waitForStatus(domain.id, 'REVOKED');
    expect((await bookkeeping(domain.id)).failures).toBe(3);
    // The redirect follows at once: the status change invalidated the link cache.
    expect((await visit()).statusCode).toBe(404);
    // Revoked is final for the job: the record coming back does not reinstate the domain.
    dns.set(host, { cname: CNAME_TARGET });
    await new Promise((r) => setTimeout(r, INTERVAL_MS * 4));
    expect(await statusOf(domain.id)).toBe('REVOKED');
  });

  it('never revokes a domain the operator activated without our CNAME ever being seen', async () => {
    const domain = await register('operator.only.example');
    expect((await svc.admin('PUT', `/custom-domains/${domain.id}/status`, { status: 'ACTIVE' })).statusCode).toBe(200);
    await checkedMore(domain.domainName, 5);
    // The fifth DNS query is seen before its miss is written: wait for the write, not the query.
    await eventually(async () => (await bookkeeping(domain.id)).failures >= 5, 10_000, 'five misses recorded');
    expect(await statusOf(domain.id)).toBe('ACTIVE');
    expect((await bookkeeping(domain.id)).failures).toBeGreaterThanOrEqual(5);
  });

  it('leaves platform subdomains (no CNAME to check) to the operator', async () => {
    const domain = await register('brand.sgnp.example');
    expect(domain.cnameRecordName).toBeNull();
    await new Promise((r) => setTimeout(r, INTERVAL_MS * 4));
    expect(dns.queries(domain.domainName)).toBe(0);
    expect(await statusOf(domain.id)).toBe('PENDING');
  });
});

describe(`claiming due domains (${backend})`, () => {
  it('hands each due domain to one claimer only, and to none again before the interval', async () => {
    // The service's own job stops here, so the claims below are the only ones.
    await svc.container.deps.domains.stopVerification();
    const other = await svc.createOrganization('Claims');
    const created: number[] = [];
    for (let i = 0; i < 30; i++) {
      const res = await svc.admin('POST', `/organizations/${other.id}/custom-domains`, {
        domainName: `c${i}.claims.example`,
      });
      expect(res.statusCode).toBe(201);
      created.push((res.json() as Domain).id);
    }
    // With an hour's interval only the never-checked domains are due. Two claimers at once (two
    // instances) split them without overlap.
    const sql = svc.container.postgres.sql;
    const a = createDomainVerificationRepo({ sql });
    const b = createDomainVerificationRepo({ sql });
    const [first, second] = await Promise.all([a.claimDue(3_600_000, 20, 60_000), b.claimDue(3_600_000, 20, 60_000)]);
    const ids = [...first, ...second].map((d) => d.id);
    expect(ids.sort((x, y) => x - y)).toEqual(created);
    expect(first.length).toBeGreaterThan(0);
    expect(second.length).toBeGreaterThan(0);
    // Claimed means checked for now: nobody gets them again before the interval has passed,
    expect(await a.claimDue(3_600_000, 100, 60_000)).toEqual([]);
    // nor after it while the claiming check has not ended (a slow DNS answer),
    const ours = (claims: { id: number }[]) => claims.map((d) => d.id).filter((id) => created.includes(id));
    expect(ours(await a.claimDue(0, 100, 60_000))).toEqual([]);
    // until the check ends: then they are due again after the interval.
    for (const d of first)
      await a.apply(d.id, d.claimedAt, (current) => ({
        ...current,
        found: false,
        counted: true,
        note: 'missing:test',
      }));
    const again = ours(await a.claimDue(0, 100, 0));
    expect(again.sort((x, y) => x - y)).toEqual(first.map((d) => d.id).sort((x, y) => x - y));
  });

  it('lets a lapsed claim go (an instance that died mid-check), and drops that check when it answers late', async () => {
    const sql = svc.container.postgres.sql;
    const domain = await register('lapsed.claims.example');
    const a = createDomainVerificationRepo({ sql });
    const [claimed] = (await a.claimDue(0, 100, 1)).filter((d) => d.id === domain.id);
    expect(claimed).toBeDefined();
    await new Promise((r) => setTimeout(r, 20));
    const [reclaimed] = (await a.claimDue(0, 100, 60_000)).filter((d) => d.id === domain.id);
    expect(reclaimed).toBeDefined();
    const before = await bookkeeping(domain.id);
    // The first claimer answers after all: its answer no longer counts.
    expect(
      await a.apply(domain.id, claimed!.claimedAt, (current) => ({
        ...current,
        failures: current.failures + 1,
        found: false,
        counted: true,
        note: 'missing:late',
      })),
    ).toBeUndefined();
    expect((await bookkeeping(domain.id)).attempts).toBe(before.attempts);
    expect(
      await a.apply(domain.id, reclaimed!.claimedAt, (current) => ({
        ...current,
        failures: current.failures + 1,
        found: false,
        counted: true,
        note: 'missing:current',
      })),
    ).toEqual({ from: 'PENDING', to: 'PENDING' });
    expect((await bookkeeping(domain.id)).attempts).toBe(before.attempts + 1);
  });
});

describe.runIf(backend === 'services')('two instances checking one database', () => {
  let second: TestService;

  beforeAll(async () => {
    second = await startService(svc.isolation, {
      PUBLIC_BASE_URL,
      DNS_RESOLVER: dns.address,
      DOMAIN_VERIFY_INTERVAL_MS: String(INTERVAL_MS),
      DOMAIN_VERIFY_MAX_MISSES: String(MAX_MISSES),
    });
  });

  afterAll(async () => {
    await second?.close();
  });

  it('check each domain once per interval between them: a failing domain fails after exactly the misses', async () => {
    // The first instance's job was stopped above (or runs, when this test runs alone: three then).
    // A fresh one runs beside the second instance's.
    const { createDomainVerifier } = await import('../src/core/domains/domain-verifier.js');
    const { createCnameChecker } = await import('../src/core/domains/cname-check.js');
    const first = createDomainVerifier({
      repo: createDomainVerificationRepo({ sql: svc.container.postgres.sql }),
      checker: createCnameChecker({ servers: [dns.address] }),
      intervalMs: INTERVAL_MS,
      maxMisses: MAX_MISSES,
      log: svc.container.log,
      onStatusChange: () => svc.container.linkChanged(null),
    });
    first.start();
    try {
      // Answers slower than the interval: the domain is due again while its check still waits.
      dns.delay('twice.failing.example', INTERVAL_MS * 2);
      const failing = await register('twice.failing.example');
      const verified = await register('twice.verified.example');
      dns.set(verified.domainName, { cname: CNAME_TARGET });
      await waitForStatus(verified.id, 'VERIFIED');
      await waitForStatus(failing.id, 'FAILED');
      await new Promise((r) => setTimeout(r, INTERVAL_MS * 3));
      const record = await bookkeeping(failing.id);
      expect(record.attempts).toBe(MAX_MISSES);
      // The claimed check holds the domain until it answers: no instance asks DNS in between.
      expect(dns.queries(failing.domainName)).toBe(MAX_MISSES);
      // The other instance serves the newly verified domain's links by Host.
      const created = await svc.service('POST', '/urls', org.apiKey, {
        url: 'https://shop.example/twice',
        customDomainName: verified.domainName,
        customAlias: 'twice',
      });
      expect(created.statusCode, created.body).toBe(201);
      await eventually(
        async () =>
          (await second.inject({ method: 'GET', url: '/twice', headers: { host: verified.domainName } })).statusCode ===
          302,
        5_000,
        'redirect on the other instance',
      );
    } finally {
      await first.stop();
    }
  });
});
