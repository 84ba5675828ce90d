// The user-journey event types' payloads and how each becomes a ClickHouse row
// (sql/clickhouse/0005), and the webhook events they make. The user-journey API records them
// through the publisher; webhooks turn them into session.started, session.transition, funnel.stage
// and goal.completed. `data` never carries plaintext PII: ids, platform, UTM, the link, the stage, the goal.
import type { WebhookEvent } from '../shared/webhook-body.js';
import type { WireEvent } from './envelope.js';
import { defineEvent } from './event-spec.js';
import { num, rowOf, str } from './row-values.js';
import { funnelEvents, linkOf, positiveId, text, webhookEvent } from './webhook-events.js';

export const JOURNEY_PLATFORMS = ['WEB', 'IOS', 'ANDROID'] as const;
export type JourneyPlatform = (typeof JOURNEY_PLATFORMS)[number];

/** The web app's five funnel stages, in order. */
export const WEB_FUNNEL_STAGES = [
  'CLICKED',
  'DEEP_LINK_RESOLVED',
  'CONTENT_VIEWED',
  'ACTION_TAKEN',
  'GOAL_COMPLETED',
] as const;
export type WebFunnelStage = (typeof WEB_FUNNEL_STAGES)[number];

/** `data` of `session_started`: the session as created. */
export interface SessionStartedData {
  sessionId: string;
  appId: number;
  platform: JourneyPlatform;
  externalUserId: string | null;
  utmSource: string | null;
  utmMedium: string | null;
  utmCampaign: string | null;
  /** Host of the referrer only: a full referrer URL can carry personal data in its query. */
  referrerHost: string | null;
  urlId: number | null;
  campaignId: number | null;
  startedAt: string;
}

/** `data` of `session_event`: one named event with the caller's properties. */
export interface SessionEventData {
  sessionId: string;
  appId: number;
  platform: JourneyPlatform;
  eventType: string;
  properties: Record<string, unknown>;
  externalUserId: string | null;
}

/** `data` of `session_transition`: the user moved between platforms (web → app and so on). */
export interface SessionTransitionData {
  sessionId: string;
  appId: number;
  fromPlatform: JourneyPlatform;
  toPlatform: JourneyPlatform;
  targetSessionId: string | null;
  urlId: number | null;
  campaignId: number | null;
  deepLinkToken: string | null;
  externalUserId: string | null;
  properties: Record<string, unknown>;
}

/** `data` of `journey_funnel`: a web funnel stage; GOAL_COMPLETED carries the goal. */
export interface JourneyFunnelData {
  sessionId: string;
  appId: number;
  platform: JourneyPlatform;
  stage: WebFunnelStage;
  goalType: string | null;
  goalValue: number | null;
  currency: string | null;
  transactionId: string | null;
  urlId: number | null;
  campaignId: number | null;
  externalUserId: string | null;
  /** The deep-link token the session was opened with: ties a goal to its click; absent or null when none. */
  deepLinkToken?: string | null;
}

const platform = (v: unknown) => ((JOURNEY_PLATFORMS as readonly unknown[]).includes(v) ? (v as string) : '');
const json = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : '{}');

/** The columns of every journey table: the app, the session and the user. */
type SessionFields = { readonly appId?: unknown; readonly sessionId?: unknown; readonly externalUserId?: unknown };
const sessionColumns = (d: SessionFields) => ({
  app_id: num(d.appId),
  session_id: str(d.sessionId, 64),
  external_user_id: str(d.externalUserId, 200),
});

/** The link an event came through: its short URL, else its campaign, else none. */
type LinkFields = { readonly urlId?: unknown; readonly campaignId?: unknown };
function linkColumns(d: LinkFields): { link_type: 'none' | 'url' | 'campaign'; link_id: number } {
  if (num(d.urlId) > 0) return { link_type: 'url', link_id: num(d.urlId) };
  if (num(d.campaignId) > 0) return { link_type: 'campaign', link_id: num(d.campaignId) };
  return { link_type: 'none', link_id: 0 };
}

const sessionStartedRow = rowOf<SessionStartedData>((d) =>
  Object.assign(sessionColumns(d), linkColumns(d), {
    platform: platform(d.platform),
    utm_source: str(d.utmSource, 100),
    utm_medium: str(d.utmMedium, 100),
    utm_campaign: str(d.utmCampaign, 100),
    referrer_host: str(d.referrerHost, 255),
  }),
);

const sessionEventRow = rowOf<SessionEventData>((d) =>
  Object.assign(sessionColumns(d), {
    platform: platform(d.platform),
    event_type: str(d.eventType, 100),
    properties: json(d.properties),
  }),
);

const sessionTransitionRow = rowOf<SessionTransitionData>((d) =>
  Object.assign(sessionColumns(d), linkColumns(d), {
    from_platform: platform(d.fromPlatform),
    to_platform: platform(d.toPlatform),
    target_session_id: str(d.targetSessionId, 64),
    deep_link_token: str(d.deepLinkToken, 200),
    properties: json(d.properties),
  }),
);

const journeyFunnelRow = rowOf<JourneyFunnelData>((d) =>
  Object.assign(sessionColumns(d), linkColumns(d), {
    platform: platform(d.platform),
    stage: (WEB_FUNNEL_STAGES as readonly unknown[]).includes(d.stage) ? d.stage : 'CLICKED',
    goal_type: str(d.goalType, 50),
    goal_value: num(d.goalValue),
    currency: str(d.currency, 3).toUpperCase(),
    transaction_id: str(d.transactionId, 200),
    deep_link_token: str(d.deepLinkToken, 200),
  }),
);

/** A session webhook (category session): one event of `type`, its session and app, then what `fields` picks. */
function sessionWebhook<P extends { sessionId: string; appId: number }>(
  type: 'session.started' | 'session.transition',
  fields: (d: WireEvent<P>['data']) => Record<string, unknown>,
) {
  return {
    categories: ['session'] as const,
    toEvents(e: WireEvent<P>): WebhookEvent[] {
      const d = e.data;
      return [
        webhookEvent(e, type, 'session', { sessionId: text(d.sessionId), appId: positiveId(d.appId), ...fields(d) }),
      ];
    },
  };
}

export const JOURNEY_EVENTS = {
  session_started: defineEvent<SessionStartedData>()({
    category: 'session',
    olap: { table: 'journey_session_starts', consumer: 'olap-session-started', toRow: sessionStartedRow },
    webhooks: sessionWebhook<SessionStartedData>('session.started', (d) => ({
      platform: text(d.platform, 20),
      ...linkOf(d),
      externalUserId: text(d.externalUserId),
      utmSource: text(d.utmSource, 100),
      utmMedium: text(d.utmMedium, 100),
      utmCampaign: text(d.utmCampaign, 100),
      referrerHost: text(d.referrerHost, 255),
    })),
  }),
  session_event: defineEvent<SessionEventData>()({
    category: 'session',
    olap: { table: 'journey_events', consumer: 'olap-session-event', toRow: sessionEventRow },
  }),
  session_transition: defineEvent<SessionTransitionData>()({
    category: 'session',
    olap: { table: 'journey_transitions', consumer: 'olap-session-transition', toRow: sessionTransitionRow },
    webhooks: sessionWebhook<SessionTransitionData>('session.transition', (d) => ({
      fromPlatform: text(d.fromPlatform, 20),
      toPlatform: text(d.toPlatform, 20),
      targetSessionId: text(d.targetSessionId),
      ...linkOf(d),
      externalUserId: text(d.externalUserId),
    })),
  }),
  journey_funnel: defineEvent<JourneyFunnelData>()({
    category: 'funnel',
    olap: { table: 'journey_funnel', consumer: 'olap-journey-funnel', toRow: journeyFunnelRow },
    webhooks: { categories: ['funnel', 'goal'], toEvents: (e) => funnelEvents(e, 'web') },
  }),
};
