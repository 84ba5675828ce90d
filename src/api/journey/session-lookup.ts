// Look-ups every journey route shares: the caller's session (404 otherwise), a link of the
// organization (404 otherwise), and the time an event is recorded at.
import { invalid, notFound } from '../../shared/errors.js';
import type { JourneySession } from '../../oltp/journey-sessions.repo.js';
import type { AppDeps } from '../deps.js';

export async function sessionOrThrow(deps: AppDeps, organizationId: number, sessionId: string): Promise<JourneySession> {
  const session = await deps.journey.sessions.get(organizationId, sessionId);
  if (!session) throw notFound('SESSION_NOT_FOUND', `session ${sessionId} does not exist`);
  return session;
}

export async function findLinkOrThrow(
  deps: AppDeps,
  organizationId: number,
  by: { urlId: number } | { campaignId: number } | { code: string } | { alias: string },
): Promise<{ type: 'url' | 'campaign'; id: number; code: string }> {
  const link = await deps.journey.sessions.findLink(organizationId, by);
  if (link) return link;
  const what =
    'urlId' in by ? `short URL ${by.urlId}` : 'campaignId' in by ? `campaign ${by.campaignId}` : 'alias' in by ? `campaign alias ${by.alias}` : `short code or alias ${by.code}`;
  throw notFound('LINK_NOT_FOUND', `${what} does not exist in this organization`);
}

/** The link a call names (urlId or campaignId, checked), else the one registered on the session. */
export async function linkFor(
  deps: AppDeps,
  session: JourneySession,
  given: { urlId: number | null; campaignId: number | null },
): Promise<{ urlId: number | null; campaignId: number | null }> {
  if (given.urlId !== null && given.campaignId !== null) throw invalid('VALIDATION_FAILED', 'body.campaignId: send urlId or campaignId, not both');
  if (given.urlId !== null) return { urlId: (await findLinkOrThrow(deps, session.organizationId, { urlId: given.urlId })).id, campaignId: null };
  if (given.campaignId !== null) {
    return { urlId: null, campaignId: (await findLinkOrThrow(deps, session.organizationId, { campaignId: given.campaignId })).id };
  }
  return {
    urlId: session.link?.type === 'url' ? session.link.id : null,
    campaignId: session.link?.type === 'campaign' ? session.link.id : null,
  };
}

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
  if (clientTime.getTime() < now.getTime() - MAX_AGE_MS) throw invalid('VALIDATION_FAILED', `body.${field}: must be within the last 30 days`);
  return Math.min(clientTime.getTime(), now.getTime());
}
