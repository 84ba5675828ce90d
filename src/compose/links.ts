// Wiring of the links feature: short URLs and campaigns over their repositories, the click
// counts, the event publisher, the link caches' invalidation and what the geo database knows; the
// goal types links may name.
import type { AuditTrail } from '../core/accounts/audit-trail.js';
import { createGoalTypesService, type GoalTypesService } from '../core/links/goal-types.js';
import { createLinksService, type LinksService } from '../core/links/index.js';
import { createGoalTypesRepo } from '../oltp/goal-types.repo.js';
import { createTagsRepo } from '../oltp/tags.repo.js';
import { createIdempotentRequestsRepo } from '../oltp/idempotent-requests.repo.js';
import type { Config } from '../shared/config.js';
import type { Wiring } from './wiring.js';

export function composeLinks({
  config,
  repos,
  clickCounts,
  events,
  linkChanged,
  sql,
  geoFields,
}: Pick<Wiring, 'repos' | 'clickCounts' | 'events' | 'linkChanged' | 'sql' | 'geoFields'> & {
  config: Pick<Config, 'server'>;
}): LinksService {
  return createLinksService({
    repos: { ...repos, tags: createTagsRepo({ sql }), idempotentRequests: createIdempotentRequestsRepo({ sql }) },
    clickCounts,
    events,
    publicBaseUrl: config.server.publicBaseUrl,
    linkChanged,
    geoFields,
  });
}

export const composeGoalTypes = ({ sql, audit }: Pick<Wiring, 'sql'> & { audit: AuditTrail }): GoalTypesService =>
  createGoalTypesService({ repo: createGoalTypesRepo({ sql }), audit });
