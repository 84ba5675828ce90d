// Wiring of the redirect: the cached slug → link resolver over PostgreSQL, and its cache's
// metrics; the click limits' counts.
import type { Config } from '../shared/config.js';
import type { Logger } from '../shared/logger.js';
import type { Metrics } from '../shared/metrics.js';
import type { Sql } from '../oltp/postgres.js';
import { createLinkLookupRepo } from '../oltp/link-lookup.repo.js';
import { createLinkResolver, type LinkResolver } from '../core/redirect/link-resolver.js';
import { createClickLimits, type ClickLimits } from '../core/redirect/click-limits.js';
import { createClickLimitsRepo } from '../oltp/click-limits.repo.js';
import { createAgentParser } from '../ingest/enrich.js';
import type { GeoLookup } from '../ingest/geo.js';
import { createVisitorTraits } from '../core/routing/visitor-traits.js';
import { createRoutingTester, type RoutingTester } from '../core/routing/routing-tester.js';

/** Click limits counted in memory, added to PostgreSQL every second (stop() adds the last ones). */
export const composeClickLimits = ({ sql, log }: { sql: Sql; log: Logger }): ClickLimits =>
  createClickLimits({ repo: createClickLimitsRepo({ sql }), log: log.child({ module: 'click-limits' }) });

export async function composeRedirect(ctx: {
  sql: Sql;
  config: Pick<Config, 'redirect'>;
  log: Logger;
  metrics: Metrics;
  /** At most this many look-ups at once: the connection pool's size. */
  poolSize: number;
  /** The country of an address, for links whose rules name countries. */
  geo: GeoLookup;
}): Promise<LinkResolver> {
  const resolver = await createLinkResolver({
    lookup: createLinkLookupRepo({ sql: ctx.sql }),
    log: ctx.log,
    maxEntries: ctx.config.redirect.linkCacheMaxEntries,
    ttlMs: ctx.config.redirect.linkCacheTtlMs,
    maxConcurrentLoads: ctx.poolSize,
    traits: createVisitorTraits({ geo: ctx.geo, parseAgent: createAgentParser() }),
  });
  const { metrics } = ctx;
  metrics.define('link_cache_entries', 'gauge', 'Links held by the in-process cache', {
    collect: () => [{ labels: {}, value: resolver.cache.stats().size }],
  });
  metrics.define('link_cache_lookups_total', 'counter', 'Link cache look-ups by result', {
    labels: { result: ['hit', 'miss', 'stale'] },
    collect: () => {
      const s = resolver.cache.stats();
      return [
        { labels: { result: 'hit' }, value: s.hits },
        { labels: { result: 'miss' }, value: s.misses },
        { labels: { result: 'stale' }, value: s.staleServed },
      ];
    },
  });
  return resolver;
}

/** The console's routing tester, on the traits the redirect reads (the same geo database and agent parser). */
export const composeRoutingTester = (ctx: { geo: GeoLookup; clock: () => Date }): RoutingTester =>
  createRoutingTester({
    traits: createVisitorTraits({ geo: ctx.geo, parseAgent: createAgentParser() }),
    clock: ctx.clock,
  });
