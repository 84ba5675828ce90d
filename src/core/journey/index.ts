// The user journey as the API uses it: sessions, their activity, identities and consents.
import type { JourneyActivityService } from './activity.js';
import type { JourneyIdentityService } from './identity.js';
import type { JourneySessionsService } from './sessions.service.js';
import type { JourneyUsersService } from './users.js';

export interface JourneyService {
  sessions: JourneySessionsService;
  activity: JourneyActivityService;
  identity: JourneyIdentityService;
  users: JourneyUsersService;
}
