// From a request's host and path segment to a cached link. The host picks the namespace: a
// registered custom domain has its own (and serves only while VERIFIED or ACTIVE); any other host
// (the public base URL, an IP, an internal name behind a load balancer) is the platform's.
import type { Logger } from '../../shared/logger.js';
import { createLinkCache, type LinkCache } from '../../oltp/link-cache.js';
import type { DomainHost, LinkLookupRepo, ResolvedLink } from '../../oltp/link-lookup.repo.js';
import { compileRouting, type CompiledRouting, type VisitorTraits } from '../routing/routing-rules.js';
import { baseDestination } from './destination.js';

export interface CachedLink extends ResolvedLink {
  /** originalUrl with the link's UTM parameters, computed once. */
  destination: string;
  /** Its routing rules and variants, compiled once; null when it has neither. */
  routing: CompiledRouting | null;
}

export type Resolution = CachedLink | undefined | 'unusable-domain';

export interface LinkResolver {
  resolve(hostname: string, slug: string): Resolution | Promise<Resolution>;
  /** The registered custom domain of a host, or undefined for any other host (after a reload under way). */
  domainAt(hostname: string): Promise<DomainHost | undefined>;
  /** A link, campaign, app or domain of the organization changed (null: anything may have). */
  invalidate(organizationId: number | null): void;
  /** A registered custom domain that serves links now (VERIFIED or ACTIVE). */
  servesDomain(hostname: string): boolean | Promise<boolean>;
  cache: LinkCache<CachedLink>;
  close(): void;
}

const HOSTS_REFRESH_MS = 30_000;
/** How long a request waits for the host list an invalidation is reloading (PostgreSQL may be down). */
const HOSTS_WAIT_MS = 1_000;

export async function createLinkResolver(options: {
  lookup: LinkLookupRepo;
  log: Logger;
  maxEntries: number;
  ttlMs: number;
  maxConcurrentLoads: number;
  /** What routing rules read of a visitor (country, device, OS). */
  traits: VisitorTraits;
}): Promise<LinkResolver> {
  const log = options.log.child({ module: 'link-resolver' });
  let hosts = await options.lookup.customDomainHosts();

  // Reloads can overlap (one per invalidation): an older one finishing last must not win.
  let reloadsStarted = 0;
  let reloadApplied = 0;
  async function reloadHosts(): Promise<void> {
    const reload = ++reloadsStarted;
    try {
      const fresh = await options.lookup.customDomainHosts();
      if (reload > reloadApplied) {
        reloadApplied = reload;
        hosts = fresh;
      }
    } catch (err) {
      log.warn({ err }, 'custom domain list not refreshed; keeping the last one');
    }
  }
  const timer = setInterval(() => void reloadHosts(), HOSTS_REFRESH_MS);
  timer.unref();
  /**
   * The reload an operator change started. Requests wait for it (briefly), so a domain verified or
   * revoked a moment ago is served or refused from the next request on, not after the query.
   */
  let hostsReloading: Promise<void> | undefined;

  const cache = createLinkCache<CachedLink>({
    maxEntries: options.maxEntries,
    ttlMs: options.ttlMs,
    negativeTtlMs: Math.min(options.ttlMs, 10_000),
    maxConcurrentLoads: options.maxConcurrentLoads,
    async load(key) {
      const separator = key.indexOf('\n');
      const link = await options.lookup.findBySlug(key.slice(0, separator), key.slice(separator + 1));
      return link && { ...link, destination: baseDestination(link), routing: compileRouting(link, options.traits) };
    },
  });

  function resolveNow(hostname: string, slug: string): Resolution | Promise<Resolution> {
    const host = hostname.toLowerCase();
    const domain = hosts.get(host);
    if (domain?.usable === false) return 'unusable-domain';
    return cache.get(`${domain ? host : ''}\n${slug}`);
  }

  return {
    cache,
    resolve(hostname, slug) {
      if (hostsReloading) return hostsReloading.then(() => resolveNow(hostname, slug));
      return resolveNow(hostname, slug);
    },
    servesDomain(hostname) {
      const serves = () => hosts.get(hostname.toLowerCase().replace(/\.$/, ''))?.usable === true;
      return hostsReloading ? hostsReloading.then(serves) : serves();
    },
    async domainAt(hostname) {
      if (hostsReloading) await hostsReloading;
      return hosts.get(hostname.toLowerCase());
    },
    invalidate(organizationId) {
      cache.invalidate(organizationId === null ? undefined : (link) => link.organizationId === organizationId);
      // An organization's links, campaigns and apps never change which hosts serve links; only an
      // operator change (domain status, null here) does, and only then do requests wait for the list.
      if (organizationId !== null) return;
      let waitTimer: NodeJS.Timeout | undefined;
      const reload: Promise<void> = Promise.race([
        reloadHosts(),
        new Promise<void>((resolve) => {
          waitTimer = setTimeout(resolve, HOSTS_WAIT_MS);
          waitTimer.unref();
        }),
      ]).finally(() => {
        clearTimeout(waitTimer);
        if (hostsReloading === reload) hostsReloading = undefined;
      });
      hostsReloading = reload;
    },
    close() {
      clearInterval(timer);
    },
  };
}
