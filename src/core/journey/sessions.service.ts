// Sessions of the user journey: create, read, link a user, register the link the session came
// from. Sessions live in PostgreSQL; creating one also records `session_started` for statistics
// and the session.started webhook.
import { notFound } from '../../shared/errors.js';
import { uuidv7 } from '../../shared/ids.js';
import type { SessionStartedData } from '../../ingest/journey-events.js';
import type { EventPublisher } from '../../ingest/publisher.js';
import type { JourneySession, JourneySessionsRepo, NewSession } from '../../oltp/journey-sessions.repo.js';
import { invalidField } from '../field-error.js';
import { appOf, type JourneyCallerInfo } from './journey-caller.js';
import { referrerHost, type LinkName, type SessionLookup } from './session-lookup.js';

export type { JourneySession };

/** The session's own facts as the caller gives them; urlId or campaignId (at most one) attaches that link at once. */
export type NewSessionInput = Pick<
  NewSession,
  | 'platform'
  | 'deepLinkToken'
  | 'utmSource'
  | 'utmMedium'
  | 'utmCampaign'
  | 'referrer'
  | 'landingUrl'
  | 'externalUserId'
> & { urlId: number | null; campaignId: number | null };

/** A link named by exactly one of these. */
export interface LinkNaming {
  urlId: number | null;
  campaignId: number | null;
  shortCode: string | null;
  campaignAlias: string | null;
  /** A full short link address, whose last path segment is the code. */
  link: string | null;
}

export interface SessionsDeps {
  sessions: Pick<JourneySessionsRepo, 'create' | 'linkUser' | 'registerLink'>;
  lookup: SessionLookup;
  events: Pick<EventPublisher, 'record'>;
  clock: () => Date;
}

export function createJourneySessionsService(deps: SessionsDeps) {
  const { lookup } = deps;
  const notFoundSession = (id: string) => notFound('SESSION_NOT_FOUND', `session ${id} does not exist`);

  return {
    async create(caller: JourneyCallerInfo, input: NewSessionInput): Promise<JourneySession> {
      const organizationId = caller.organization.id;
      const app = appOf(caller);
      const link = await lookup.namedLink(organizationId, input);
      const startedAt = deps.clock();
      const session = await deps.sessions.create({
        id: uuidv7(startedAt.getTime()),
        organizationId,
        appId: app.id,
        platform: input.platform,
        externalUserId: input.externalUserId,
        deepLinkToken: input.deepLinkToken,
        utmSource: input.utmSource,
        utmMedium: input.utmMedium,
        utmCampaign: input.utmCampaign,
        referrer: input.referrer,
        landingUrl: input.landingUrl,
        link,
        startedAt,
      });
      const data: SessionStartedData = {
        sessionId: session.id,
        appId: app.id,
        platform: session.platform,
        externalUserId: session.externalUserId,
        utmSource: session.utmSource,
        utmMedium: session.utmMedium,
        utmCampaign: session.utmCampaign,
        referrerHost: referrerHost(session.referrer),
        urlId: link?.type === 'url' ? link.id : null,
        campaignId: link?.type === 'campaign' ? link.id : null,
        startedAt: startedAt.toISOString(),
      };
      deps.events.record({
        eventId: uuidv7(),
        type: 'session_started',
        occurredAt: startedAt.getTime(),
        organizationId,
        data: { ...data },
      });
      return session;
    },

    /** A session of the caller's organization; any other id (another organization's included) is not found. */
    get: (caller: JourneyCallerInfo, sessionId: string): Promise<JourneySession> =>
      lookup.sessionOrThrow(caller.organization.id, sessionId),

    /** Linking another id replaces it (a shared device changing hands); the same id changes nothing. */
    async linkUser(caller: JourneyCallerInfo, sessionId: string, externalUserId: string): Promise<JourneySession> {
      const session = await deps.sessions.linkUser(caller.organization.id, sessionId, externalUserId);
      if (!session) throw notFoundSession(sessionId);
      return session;
    },

    /** Attaches a link of the organization to the session; registering again replaces it (last touch). */
    async registerLink(caller: JourneyCallerInfo, sessionId: string, naming: LinkNaming): Promise<JourneySession> {
      const organizationId = caller.organization.id;
      const given = [naming.urlId, naming.campaignId, naming.shortCode, naming.campaignAlias, naming.link].filter(
        (v) => v !== null,
      );
      if (given.length !== 1)
        throw invalidField('', 'name the link by exactly one of urlId, campaignId, shortCode, campaignAlias or link');
      await lookup.sessionOrThrow(organizationId, sessionId);
      const link = await lookup.findLinkOrThrow(organizationId, linkNameOf(naming));
      const session = await deps.sessions.registerLink(organizationId, sessionId, link);
      if (!session) throw notFoundSession(sessionId);
      return session;
    },
  };
}

export type JourneySessionsService = ReturnType<typeof createJourneySessionsService>;

/** A code names a short URL first, then a campaign alias (the repository's look-up decides). */
function linkNameOf(n: LinkNaming): LinkName {
  if (n.urlId !== null) return { urlId: n.urlId };
  if (n.campaignId !== null) return { campaignId: n.campaignId };
  if (n.campaignAlias !== null) return { alias: n.campaignAlias };
  return { code: n.shortCode ?? codeOf(n.link!) };
}

/** The code of a short link address: its last path segment (`https://host/app/code?x` → `code`). */
function codeOf(link: string): string {
  let path = link;
  try {
    path = new URL(link).pathname;
  } catch {
    // Not an absolute URL: a path or a bare code.
  }
  const code = path.split('?')[0]!.split('/').filter(Boolean).pop();
  const refuse = () => invalidField('link', 'must be a short link address such as https://sgnp.example/aB3dE9x');
  if (!code) throw refuse();
  try {
    return decodeURIComponent(code);
  } catch {
    throw refuse();
  }
}
