// Events, platform transitions and funnel stages of a session. Writes travel through the event bus
// into ClickHouse like clicks (accepted at once); reads of a session's events and transitions see
// them within seconds. A client eventId, and a goal's transactionId (per organization), make
// retries safe: each is recorded once.
import { invalidField } from '../field-error.js';
import { uuidv7 } from '../../shared/ids.js';
import type { JourneyFunnelData, SessionEventData, SessionTransitionData } from '../../ingest/journey-events.js';
import type { EventPayloads } from '../../ingest/event-registry.js';
import type { EventPublisher } from '../../ingest/publisher.js';
import type { JourneyActivity } from '../../olap/journey-activity.queries.js';
import type { JourneySessionsRepo } from '../../oltp/journey-sessions.repo.js';
import { appOf, type JourneyCallerInfo } from './journey-caller.js';
import { eventTime, type SessionLookup } from './session-lookup.js';

/** The platforms and web funnel stages the journey speaks of. */
export { JOURNEY_PLATFORMS, WEB_FUNNEL_STAGES } from '../../ingest/journey-events.js';

interface ClientStamp {
  /** When it happened by the client's clock; null: now. */
  occurredAt: Date | null;
  /** The client's own id for the event; repeats of it are recorded once. */
  eventId?: string | undefined;
}

/** What the caller says of an event: the session's own facts (app, platform, user) are added here. */
export type EventInput = Pick<SessionEventData, 'sessionId' | 'eventType' | 'properties'> & ClientStamp;

/** Without urlId or campaignId the session's registered link is credited. */
export type TransitionInput = Omit<SessionTransitionData, 'appId' | 'externalUserId'> & ClientStamp;

export type FunnelInput = Omit<JourneyFunnelData, 'appId' | 'platform' | 'externalUserId'> & ClientStamp;

export interface Page {
  page: number;
  size: number;
}

export interface ActivityDeps {
  sessions: Pick<JourneySessionsRepo, 'claimTransaction'>;
  activity: JourneyActivity;
  lookup: SessionLookup;
  events: Pick<EventPublisher, 'record'>;
  clock: () => Date;
}

export function createJourneyActivityService(deps: ActivityDeps) {
  const { lookup } = deps;

  /** The event's id and time; `field` names the client's time in the input when it is refused. */
  const stampOf = (input: ClientStamp, field: string) => ({
    occurredAt: eventTime(input.occurredAt, deps.clock(), field),
    eventId: input.eventId ?? uuidv7(),
  });

  /**
   * Hands the event to the bus, which writes it to ClickHouse and the webhooks, with what every
   * event of a session carries of it (the session, the app and the user); the payload sent.
   */
  function publish<T extends 'session_event' | 'session_transition' | 'journey_funnel'>(
    type: T,
    caller: JourneyCallerInfo,
    session: { id: string; externalUserId: string | null },
    stamp: { occurredAt: number; eventId: string },
    own: Omit<EventPayloads[T], 'sessionId' | 'appId' | 'externalUserId'>,
  ): EventPayloads[T] {
    const data = {
      sessionId: session.id,
      appId: appOf(caller).id,
      externalUserId: session.externalUserId,
      ...own,
    } as EventPayloads[T];
    deps.events.record({
      eventId: stamp.eventId,
      type,
      occurredAt: stamp.occurredAt,
      organizationId: caller.organization.id,
      data: { ...data },
    });
    return data;
  }

  return {
    async recordEvent(caller: JourneyCallerInfo, input: EventInput) {
      const organizationId = caller.organization.id;
      const session = await lookup.sessionOrThrow(organizationId, input.sessionId);
      const stamp = stampOf(input, 'occurredAt');
      const { eventType, properties } = input;
      publish('session_event', caller, session, stamp, { platform: session.platform, eventType, properties });
      return {
        eventId: stamp.eventId,
        sessionId: session.id,
        eventType: input.eventType,
        occurredAt: new Date(stamp.occurredAt),
      };
    },

    /** Newest first, one page; optionally one event type only. */
    async events(caller: JourneyCallerInfo, sessionId: string, filter: { eventType?: string | undefined }, page: Page) {
      const organizationId = caller.organization.id;
      const session = await lookup.sessionOrThrow(organizationId, sessionId);
      const { items, total } = await deps.activity.events({
        organizationId,
        sessionId: session.id,
        eventType: filter.eventType,
        ...page,
      });
      return { sessionId: session.id, items, total };
    },

    /**
     * The visitor moved from one platform to another. The link credited is the one named, else the
     * session's registered link; a target session must be one of the organization.
     */
    async recordTransition(caller: JourneyCallerInfo, input: TransitionInput) {
      const organizationId = caller.organization.id;
      if (input.fromPlatform === input.toPlatform) throw invalidField('toPlatform', 'must differ from fromPlatform');
      const session = await lookup.sessionOrThrow(organizationId, input.sessionId);
      if (input.targetSessionId !== null) await lookup.sessionOrThrow(organizationId, input.targetSessionId);
      const link = await lookup.linkFor(session, input);
      const stamp = stampOf(input, 'occurredAt');
      const { fromPlatform, toPlatform, targetSessionId, deepLinkToken, properties } = input;
      const data = publish('session_transition', caller, session, stamp, {
        fromPlatform,
        toPlatform,
        targetSessionId,
        urlId: link.urlId,
        campaignId: link.campaignId,
        deepLinkToken,
        properties,
      });
      const { appId: _appId, ...transition } = data;
      return { transitionId: stamp.eventId, ...transition, occurredAt: new Date(stamp.occurredAt) };
    },

    /** Newest first, one page. */
    async transitions(caller: JourneyCallerInfo, sessionId: string, page: Page) {
      const organizationId = caller.organization.id;
      const session = await lookup.sessionOrThrow(organizationId, sessionId);
      const { items, total } = await deps.activity.transitions({ organizationId, sessionId: session.id, ...page });
      return { sessionId: session.id, items, total };
    },

    /**
     * A funnel stage of the session; GOAL_COMPLETED carries the goal. A transactionId is recorded
     * once per organization: a repeat stores nothing and answers with the first one.
     */
    async trackFunnel(caller: JourneyCallerInfo, input: FunnelInput) {
      const organizationId = caller.organization.id;
      const session = await lookup.sessionOrThrow(organizationId, input.sessionId);
      const link = await lookup.linkFor(session, input);
      const { occurredAt, eventId } = stampOf(input, 'timestamp');
      const answer = {
        stage: input.stage,
        goalType: input.goalType,
        goalValue: input.goalValue,
        currency: input.currency,
        transactionId: input.transactionId,
        ...link,
      };
      if (input.transactionId !== null) {
        const claim = await deps.sessions.claimTransaction({
          organizationId,
          transactionId: input.transactionId,
          sessionId: session.id,
          eventId,
          goalType: input.goalType,
          goalValue: input.goalValue,
          currency: input.currency,
        });
        if (!claim.recorded) {
          return {
            recorded: false,
            duplicate: true,
            eventId: claim.firstEventId,
            sessionId: claim.firstSessionId,
            ...answer,
            occurredAt: claim.firstRecordedAt,
          };
        }
      }
      const { stage, goalType, goalValue, currency, transactionId, urlId, campaignId } = answer;
      publish(
        'journey_funnel',
        caller,
        session,
        { eventId, occurredAt },
        {
          platform: session.platform,
          stage,
          goalType,
          goalValue,
          currency,
          transactionId,
          urlId,
          campaignId,
          // Ties the goal to the click whose token opened the session (conversions by destination).
          deepLinkToken: session.deepLinkToken,
        },
      );
      return {
        recorded: true,
        duplicate: false,
        eventId,
        sessionId: session.id,
        ...answer,
        occurredAt: new Date(occurredAt),
      };
    },
  };
}

export type JourneyActivityService = ReturnType<typeof createJourneyActivityService>;
