// The resolver's invalidation: an organization's own change drops only its cached links and never
// holds up anyone's redirect; an operator change (domain status) reloads the host list first.
import { describe, expect, it } from 'vitest';
import { createLinkResolver } from '../../src/core/redirect/link-resolver.js';
import type { LinkLookupRepo, ResolvedLink } from '../../src/oltp/link-lookup.repo.js';
import { createLogger } from '../../src/shared/logger.js';

function link(organizationId: number, slug: string, domainKey = ''): ResolvedLink {
  return {
    kind: 'url',
    id: organizationId * 100,
    organizationId,
    slug,
    domainKey,
    originalUrl: `https://example.com/${slug}`,
    expiresAt: null,
    showAdPage: false,
    title: null,
    ogTitle: null,
    ogDescription: null,
    ogImageUrl: null,
    utm: { source: null, medium: null, campaign: null, term: null, content: null },
    mobileTargetUrl: null,
    goalType: null,
    ios: null,
    android: null,
    language: 'ko',
    passwordHash: null,
    clickLimit: null,
    clickLimitUrl: null,
    limitClicks: 0,
    expiredUrl: null,
    tagIds: [],
    routingRules: [],
    variants: [],
    conversionTracking: false,
  };
}

/** An in-memory look-up that counts what it is asked. */
function lookup() {
  const calls = { hosts: 0, slugs: 0 };
  const links = new Map([
    ['\na1', link(1, 'a1')],
    ['\nb1', link(2, 'b1')],
    ['go.brand.example\nx', link(2, 'x', 'go.brand.example')],
  ]);
  let hosts = new Map([['go.brand.example', { usable: true, fallbackUrl: null, language: 'ko' as const }]]);
  const repo: LinkLookupRepo = {
    async findBySlug(domainKey, slug) {
      calls.slugs++;
      return links.get(`${domainKey}\n${slug}`);
    },
    async customDomainHosts() {
      calls.hosts++;
      return new Map(hosts);
    },
  };
  return {
    repo,
    calls,
    revoke: () =>
      (hosts = new Map([['go.brand.example', { usable: false, fallbackUrl: null, language: 'ko' as const }]])),
  };
}

async function resolver(repo: LinkLookupRepo) {
  return createLinkResolver({
    lookup: repo,
    log: createLogger({ level: 'silent', pretty: false }),
    maxEntries: 100,
    ttlMs: 60_000,
    maxConcurrentLoads: 1,
    traits: {
      country: () => '',
      place: () => ({ region: '', city: '' }),
      agent: () => ({ deviceType: 'desktop', os: '', browser: '' }),
    },
  });
}

describe('link resolver invalidation', () => {
  it("an organization's change reloads nothing and leaves others' redirects synchronous", async () => {
    const { repo, calls } = lookup();
    const r = await resolver(repo);
    await r.resolve('localhost', 'a1');
    await r.resolve('localhost', 'b1');
    const hostsBefore = calls.hosts;

    r.invalidate(1);
    const other = r.resolve('localhost', 'b1');
    expect(other).not.toBeInstanceOf(Promise);
    expect((other as ResolvedLink).organizationId).toBe(2);
    // The changed organization's link is looked up again.
    const own = r.resolve('localhost', 'a1');
    expect(own).toBeInstanceOf(Promise);
    expect(((await own) as ResolvedLink).slug).toBe('a1');
    expect(calls.hosts).toBe(hostsBefore);
    r.close();
  });

  it('an operator change reloads the host list before the next request is answered', async () => {
    const { repo, calls, revoke } = lookup();
    const r = await resolver(repo);
    expect(((await r.resolve('go.brand.example', 'x')) as ResolvedLink).slug).toBe('x');
    revoke();
    r.invalidate(null);
    expect(await r.resolve('go.brand.example', 'x')).toBe('unusable-domain');
    expect(calls.hosts).toBe(2);
    r.close();
  });
});
