// Wires the user-journey services: sessions and identities in PostgreSQL, session activity in
// ClickHouse, events through the publisher.
import { createJourneyActivityService } from '../core/journey/activity.js';
import { createJourneyIdentityService } from '../core/journey/identity.js';
import { createIdentityVerification } from '../core/journey/identity-verification.js';
import type { JourneyService } from '../core/journey/index.js';
import { createSessionLookup } from '../core/journey/session-lookup.js';
import { createJourneySessionsService } from '../core/journey/sessions.service.js';
import { createJourneyUsersService } from '../core/journey/users.js';
import { createJourneyActivity } from '../olap/journey-activity.queries.js';
import { createJourneySessionsRepo } from '../oltp/journey-sessions.repo.js';
import { createJourneyUsersRepo } from '../oltp/journey-users.repo.js';
import type { Wiring } from './wiring.js';

export function composeJourney({
  sql,
  clickhouse,
  secretBox,
  repos,
  events,
  clock,
}: Pick<Wiring, 'sql' | 'clickhouse' | 'secretBox' | 'repos' | 'events' | 'clock'>): JourneyService {
  const sessions = createJourneySessionsRepo({ sql });
  const users = createJourneyUsersRepo({ sql, secretBox });
  const lookup = createSessionLookup(sessions);
  return {
    sessions: createJourneySessionsService({ sessions, lookup, events, clock }),
    activity: createJourneyActivityService({
      sessions,
      activity: createJourneyActivity(clickhouse),
      lookup,
      events,
      clock,
    }),
    identity: createJourneyIdentityService({
      users,
      requireVerifiedIdentity: createIdentityVerification(repos.mobileApps),
    }),
    users: createJourneyUsersService({ users }),
  };
}
