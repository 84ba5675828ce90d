// Wires the user-journey services: sessions and identities in PostgreSQL, session activity in
// ClickHouse, events through the publisher.
import { createJourneyActivityService } from '../core/journey/activity.js';
import { createJourneyIdentityService } from '../core/journey/identity.js';
import { createIdentityVerification } from '../core/journey/identity-verification.js';
import type { JourneyService } from '../core/journey/journey-service.js';
import { createSessionLookup } from '../core/journey/session-lookup.js';
import { createJourneySessionsService } from '../core/journey/sessions.js';
import { createJourneyUsersService } from '../core/journey/users.js';
import type { EventPublisher } from '../ingest/publisher.js';
import type { ClickHouseClient } from '../olap/clickhouse.js';
import { createJourneyActivity } from '../olap/journey-activity.js';
import { createJourneySessionsRepo } from '../oltp/journey-sessions.repo.js';
import { createJourneyUsersRepo } from '../oltp/journey-users.repo.js';
import type { MobileAppsRepo } from '../oltp/mobile-apps.repo.js';
import type { Sql } from '../oltp/postgres.js';
import type { SecretBox } from '../shared/secret-box.js';

export function composeJourney(ctx: {
  sql: Sql;
  clickhouse: ClickHouseClient;
  secretBox: SecretBox;
  mobileApps: MobileAppsRepo;
  events: EventPublisher;
  clock: () => Date;
}): JourneyService {
  const { events, clock } = ctx;
  const sessions = createJourneySessionsRepo({ sql: ctx.sql });
  const users = createJourneyUsersRepo({ sql: ctx.sql, secretBox: ctx.secretBox });
  const lookup = createSessionLookup(sessions);
  return {
    sessions: createJourneySessionsService({ sessions, lookup, events, clock }),
    activity: createJourneyActivityService({ sessions, activity: createJourneyActivity(ctx.clickhouse), lookup, events, clock }),
    identity: createJourneyIdentityService({ users, requireVerifiedIdentity: createIdentityVerification(ctx.mobileApps) }),
    users: createJourneyUsersService({ users }),
  };
}
