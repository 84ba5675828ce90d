// The user-journey event types' payloads and how each becomes a ClickHouse row
// (sql/clickhouse/0005). The user-journey API records them through the publisher; event-registry.ts
// routes them; webhooks turn them into session.started, session.transition, funnel.stage and
// goal.completed. `data` never carries plaintext PII: ids, platform, UTM, the link, the stage, the goal.
import type { EventRow } from '../shared/event-rows.js';
import type { WireEvent } from './envelope.js';
import { num, str, withEventColumns } from './row-values.js';

export const JOURNEY_PLATFORMS = ['WEB', 'IOS', 'ANDROID'] as const;
export type JourneyPlatform = (typeof JOURNEY_PLATFORMS)[number];

/** The web app's five funnel stages, in order. */
export const WEB_FUNNEL_STAGES = ['CLICKED', 'DEEP_LINK_RESOLVED', 'CONTENT_VIEWED', 'ACTION_TAKEN', 'GOAL_COMPLETED'] as const;
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
}

const platform = (v: unknown) => ((JOURNEY_PLATFORMS as readonly unknown[]).includes(v) ? (v as string) : '');

/** The link an event came through: its short URL, else its campaign, else none. */
type WithLink = { readonly urlId?: unknown; readonly campaignId?: unknown };
const linkType = (d: WithLink): 'none' | 'url' | 'campaign' =>
  num(d.urlId) > 0 ? 'url' : num(d.campaignId) > 0 ? 'campaign' : 'none';
const linkId = (d: WithLink): number => (num(d.urlId) > 0 ? num(d.urlId) : num(d.campaignId));

const json = (v: unknown) => (v !== null && typeof v === 'object' ? JSON.stringify(v) : '{}');

export function sessionStartedRow(e: WireEvent<SessionStartedData>): EventRow {
  const d = e.data;
  return withEventColumns(e, {
    app_id: num(d.appId),
    session_id: str(d.sessionId, 64),
    platform: platform(d.platform),
    external_user_id: str(d.externalUserId, 200),
    utm_source: str(d.utmSource, 100),
    utm_medium: str(d.utmMedium, 100),
    utm_campaign: str(d.utmCampaign, 100),
    referrer_host: str(d.referrerHost, 255),
    link_type: linkType(d),
    link_id: linkId(d),
  });
}

export function sessionEventRow(e: WireEvent<SessionEventData>): EventRow {
  const d = e.data;
  return withEventColumns(e, {
    app_id: num(d.appId),
    session_id: str(d.sessionId, 64),
    platform: platform(d.platform),
    event_type: str(d.eventType, 100),
    properties: json(d.properties),
    external_user_id: str(d.externalUserId, 200),
  });
}

export function sessionTransitionRow(e: WireEvent<SessionTransitionData>): EventRow {
  const d = e.data;
  return withEventColumns(e, {
    app_id: num(d.appId),
    session_id: str(d.sessionId, 64),
    from_platform: platform(d.fromPlatform),
    to_platform: platform(d.toPlatform),
    target_session_id: str(d.targetSessionId, 64),
    link_type: linkType(d),
    link_id: linkId(d),
    deep_link_token: str(d.deepLinkToken, 200),
    external_user_id: str(d.externalUserId, 200),
    properties: json(d.properties),
  });
}

export function journeyFunnelRow(e: WireEvent<JourneyFunnelData>): EventRow {
  const d = e.data;
  return withEventColumns(e, {
    app_id: num(d.appId),
    session_id: str(d.sessionId, 64),
    platform: platform(d.platform),
    stage: (WEB_FUNNEL_STAGES as readonly unknown[]).includes(d.stage) ? d.stage : 'CLICKED',
    goal_type: str(d.goalType, 50),
    goal_value: num(d.goalValue),
    currency: str(d.currency, 3).toUpperCase(),
    transaction_id: str(d.transactionId, 200),
    link_type: linkType(d),
    link_id: linkId(d),
    external_user_id: str(d.externalUserId, 200),
  });
}
