// Look-ups every journey operation shares: the caller's session (not found otherwise), a link of
// the organization (not found otherwise), and the time an event is recorded at.
import { notFound } from '../../shared/errors.js';
import type { JourneySession, JourneySessionsRepo } from '../../oltp/journey-sessions.repo.js';
import { invalidField } from '../field-error.js';

export interface FoundLink {
  type: 'url' | 'campaign';
  id: number;
  code: string;
}

export type LinkName = { urlId: number } | { campaignId: number } | { code: string } | { alias: string };

export function createSessionLookup(sessions: Pick<JourneySessionsRepo, 'get' | 'findLink'>) {
  async function sessionOrThrow(organizationId: number, sessionId: string): Promise<JourneySession> {
    const session = await sessions.get(organizationId, sessionId);
    if (!session) throw notFound('SESSION_NOT_FOUND', `session ${sessionId} does not exist`);
    return session;
  }

  async function findLinkOrThrow(organizationId: number, by: LinkName): Promise<FoundLink> {
    const link = await sessions.findLink(organizationId, by);
    if (link) return link;
    const what =
      'urlId' in by
        ? `short URL ${by.urlId}`
        : 'campaignId' in by
          ? `campaign ${by.campaignId}`
          : 'alias' in by
            ? `campaign alias ${by.alias}`
            : `short code or alias ${by.code}`;
    throw notFound('LINK_NOT_FOUND', `${what} does not exist in this organization`);
  }

  /** The link a call names by id (checked), or null when it names none; both at once is refused. */
  async function namedLink(organizationId: number, given: { urlId: number | null; campaignId: number | null }) {
    if (given.urlId !== null && given.campaignId !== null)
      throw invalidField('campaignId', 'send urlId or campaignId, not both');
    if (given.urlId !== null) return findLinkOrThrow(organizationId, { urlId: given.urlId });
    if (given.campaignId !== null) return findLinkOrThrow(organizationId, { campaignId: given.campaignId });
    return null;
  }

  /** The link a call names (urlId or campaignId, checked), else the one registered on the session. */
  async function linkFor(
    session: JourneySession,
    given: { urlId: number | null; campaignId: number | null },
  ): Promise<{ urlId: number | null; campaignId: number | null }> {
    const link = (await namedLink(session.organizationId, given)) ?? session.link;
    return { urlId: link?.type === 'url' ? link.id : null, campaignId: link?.type === 'campaign' ? link.id : null };
  }

  return { sessionOrThrow, findLinkOrThrow, namedLink, linkFor };
}

export type SessionLookup = ReturnType<typeof createSessionLookup>;

export function referrerHost(referrer: string | null): string | null {
  if (!referrer) return null;
  try {
    return new URL(referrer).hostname || null;
  } catch {
    return null;
  }
}

const MAX_AGE_MS = 30 * 24 * 3600 * 1000;

/**
 * When an event is recorded as having happened: the client's time when it gives one (apps queue
 * events offline), never later than now (device clocks run fast), at most 30 days back.
 */
export function eventTime(clientTime: Date | null, now: Date, field: string): number {
  if (clientTime === null) return now.getTime();
  if (clientTime.getTime() < now.getTime() - MAX_AGE_MS) throw invalidField(field, 'must be within the last 30 days');
  return Math.min(clientTime.getTime(), now.getTime());
}
