// The deep-link event types' payloads and how each becomes a ClickHouse row (sql/clickhouse/0001_baseline.sql).
// The producers (redirect landing page, web and mobile SDK APIs) record them through the
// publisher; app-install statistics read them; webhooks turn a funnel stage into funnel.stage and
// goal.completed.
import { defineEvent, type RowDeps } from './event-spec.js';
import { num, rowOf, str } from './row-values.js';
import { funnelEvents } from './webhook-events.js';

export const MOBILE_FUNNEL_STAGES = [
  'CLICKED',
  'STORE_VISITED',
  'APP_INSTALLED',
  'APP_OPENED',
  'DEEP_LINK_RESOLVED',
  'GOAL_COMPLETED',
] as const;
export type MobileFunnelStage = (typeof MOBILE_FUNNEL_STAGES)[number];

export type LinkType = 'url' | 'campaign';
type AppPlatform = 'IOS' | 'ANDROID';

/** `data` of a `funnel_stage` event. */
export interface FunnelStageData {
  appId: number;
  platform: AppPlatform | null;
  sessionId: string;
  stage: MobileFunnelStage;
  linkType: LinkType | null;
  linkId: number | null;
  goalType?: string | null;
  goalValue?: number | null;
  /** A goal value the app sent that is not a number (goalValue is then null). */
  goalText?: string | null;
  currency?: string | null;
  deviceType?: string | null;
  externalUserId?: string | null;
  source: 'landing' | 'server' | 'sdk';
}

/** `data` of a `deeplink_resolution` event: one per resolution attempt, matched or not. */
export interface ResolutionData {
  appId: number;
  platform: AppPlatform | null;
  method: 'token' | 'referrer' | 'clipboard' | 'fingerprint' | 'shorturl' | 'campaign';
  matched: boolean;
  matchType: 'referrer' | 'clipboard' | 'fingerprint' | 'token' | 'direct' | null;
  confidence: number;
  failureReason: string | null;
  /** What agreed on a first launch's match (referrer, token, ip, osVersion, …); absent otherwise. */
  signals?: readonly string[];
  linkType: LinkType | null;
  linkId: number | null;
  reengagement: boolean;
  userKey: string;
}

/** `data` of an `app_install` event: a first launch, attributed or organic. */
export interface AppInstallData {
  appId: number;
  platform: AppPlatform;
  linkType: LinkType | null;
  linkId: number | null;
  matchType: 'referrer' | 'clipboard' | 'fingerprint' | 'organic';
  confidence: number;
  /** Used for the country only; never stored. */
  ip: string;
  osVersion: string | null;
  sessionId: string | null;
}

const linkType = (v: unknown) => (v === 'url' || v === 'campaign' ? v : 'none');
const platform = (v: unknown) => (v === 'IOS' || v === 'ANDROID' ? v : '');
const confidence = (v: unknown) => Math.max(0, Math.min(100, Math.round(num(v))));

/** The columns of every deep-link table: the app, its platform and the link. */
type AppLinkFields = {
  readonly appId?: unknown;
  readonly platform?: unknown;
  readonly linkType?: unknown;
  readonly linkId?: unknown;
};
const appLinkColumns = (d: AppLinkFields) => ({
  app_id: num(d.appId),
  platform: platform(d.platform),
  link_type: linkType(d.linkType),
  link_id: num(d.linkId),
});

const funnelStageRow = rowOf<FunnelStageData>((d) =>
  Object.assign(appLinkColumns(d), {
    session_id: str(d.sessionId, 200),
    stage: (MOBILE_FUNNEL_STAGES as readonly unknown[]).includes(d.stage) ? d.stage : 'CLICKED',
    goal_type: str(d.goalType, 50),
    goal_value: num(typeof d.goalValue === 'string' ? Number(d.goalValue) : d.goalValue),
    goal_text: str(d.goalText, 200),
    currency: str(d.currency, 3).toUpperCase(),
    device_type: str(d.deviceType, 50),
    external_user_id: str(d.externalUserId, 200),
    source: str(d.source, 20),
  }),
);

const resolutionRow = rowOf<ResolutionData>((d) =>
  Object.assign(appLinkColumns(d), {
    method: str(d.method, 20),
    matched: d.matched === true ? 1 : 0,
    match_type: d.matched === true ? str(d.matchType, 20) : '',
    confidence: confidence(d.confidence),
    failure_reason: d.matched === true ? '' : str(d.failureReason, 100) || 'unknown',
    signals: Array.isArray(d.signals)
      ? d.signals
          .slice(0, 16)
          .map((s) => str(s, 20))
          .filter(Boolean)
      : [],
    reengagement: d.reengagement === true ? 1 : 0,
    user_key: str(d.userKey, 200),
  }),
);

const appInstallRow = rowOf<AppInstallData, RowDeps>((d, deps) => {
  const ip = str(d.ip, 64);
  return Object.assign(appLinkColumns(d), {
    match_type: str(d.matchType, 20) || 'organic',
    confidence: confidence(d.confidence),
    country: ip ? deps.enrich({ userAgent: '', ip, referrer: '' }).country : '',
    os_version: str(d.osVersion, 50),
    session_id: str(d.sessionId, 200),
  });
});

export const DEEP_LINK_EVENTS = {
  funnel_stage: defineEvent<FunnelStageData>()({
    category: 'funnel',
    olap: { table: 'deeplink_funnel', consumer: 'olap-funnel-stage', toRow: funnelStageRow },
    webhooks: { categories: ['funnel', 'goal'], toEvents: (e) => funnelEvents(e, 'mobile') },
  }),
  deeplink_resolution: defineEvent<ResolutionData>()({
    category: 'deep_link',
    olap: { table: 'deeplink_resolutions', consumer: 'olap-deeplink-resolution', toRow: resolutionRow },
  }),
  app_install: defineEvent<AppInstallData>()({
    category: 'deep_link',
    olap: { table: 'app_installs', consumer: 'olap-app-install', toRow: appInstallRow },
  }),
};
