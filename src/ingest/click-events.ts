// The `click` event: what a click on a short URL or campaign link records (the redirect, and the
// mobile SDK's reported clicks), and how it becomes a row of the clicks table (sql/clickhouse/0002).
// User-agent parsing, geo and bot detection happen here, in the consumer, never on the redirect.
// Webhooks turn a person's click into click.url or click.campaign.
import type { EventRow } from '../shared/event-rows.js';
import type { WebhookEvent } from '../shared/webhook-body.js';
import type { WireEvent } from './envelope.js';
import { defineEvent, type RowDeps, type WebhookContext } from './event-spec.js';
import { num, str, withEventColumns } from './row-values.js';
import { linkKey, positiveId, text, webhookEvent } from './webhook-events.js';

/** Where a click was counted: the redirect itself, or an app reporting one through the mobile SDK. */
export type ClickSource = 'redirect' | 'mobile_sdk';

/** `data` of a `click` event. */
export interface ClickData {
  linkType: 'url' | 'campaign';
  linkId: number;
  host: string;
  cid: string;
  tracker: string;
  referrer: string;
  userAgent: string;
  ip: string;
  acceptLanguage: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
  utmTerm: string;
  utmContent: string;
  /** A share-preview fetcher the edge recognised; the consumer's parser finds the other bots. */
  bot: boolean;
  /** Absent on clicks recorded before the field existed: those came from the redirect. */
  source?: ClickSource;
  /** The number the mobile SDK hands back for a click it reported. */
  clickId?: number;
  /** Where the link's routing rules or variants sent it (as configured); absent: the link's originalUrl. */
  destinationUrl?: string | undefined;
  /** What chose it: original, rule:N or variant:N; absent for a link without rules or variants. */
  route?: string | undefined;
  /** The deep-link token a phone click on a link with an app was given: conversions carrying it are this click's. */
  deepLinkToken?: string | undefined;
}

function clickRow(e: WireEvent<ClickData>, deps: RowDeps): EventRow {
  const d = e.data;
  const userAgent = str(d.userAgent, 1000);
  const ip = str(d.ip, 64);
  const dims = deps.enrich({ userAgent, ip, referrer: str(d.referrer) });
  return withEventColumns(e, {
    link_type: d.linkType === 'campaign' ? 'campaign' : 'url',
    link_id: num(d.linkId),
    host: str(d.host, 255),
    cid: str(d.cid, 100),
    tracker: str(d.tracker, 100),
    referrer: str(d.referrer),
    referrer_host: dims.referrerHost,
    utm_source: str(d.utmSource, 100),
    utm_medium: str(d.utmMedium, 100),
    utm_campaign: str(d.utmCampaign, 100),
    utm_term: str(d.utmTerm, 100),
    utm_content: str(d.utmContent, 100),
    ip,
    user_agent: userAgent,
    accept_language: str(d.acceptLanguage, 100),
    country: dims.country,
    region: dims.region,
    city: dims.city,
    device_type: dims.deviceType,
    os: dims.os,
    os_version: dims.osVersion,
    browser: dims.browser,
    // The edge already knows a preview fetcher; the parser catches the other automated clients.
    is_bot: d.bot === true || dims.isBot ? 1 : 0,
    // Clicks recorded before the field existed all came from the redirect.
    source: str(d.source, 20) || 'redirect',
    click_id: num(d.clickId),
    visitor_hash: deps.visitor(ip, userAgent, num(e.occurredAt)),
    destination_url: str(d.destinationUrl, 2000),
    route: str(d.route, 20),
    deep_link_token: str(d.deepLinkToken, 100),
  });
}

function clickWebhookEvents(e: WireEvent<ClickData>, ctx: WebhookContext): WebhookEvent[] {
  const d = e.data;
  // People only: preview fetchers and bots are not clicks for statistics either.
  if (d.bot === true) return [];
  const dims = ctx.enrich({
    userAgent: text(d.userAgent, 1000) ?? '',
    ip: text(d.ip, 64) ?? '',
    referrer: text(d.referrer, 2000) ?? '',
  });
  if (dims.isBot) return [];
  const linkId = positiveId(d.linkId);
  const common = {
    host: text(d.host, 255),
    referrerHost: dims.referrerHost || null,
    country: dims.country || null,
    deviceType: dims.deviceType,
    os: dims.os,
    browser: dims.browser,
    utmSource: text(d.utmSource, 100),
    utmMedium: text(d.utmMedium, 100),
    utmCampaign: text(d.utmCampaign, 100),
    utmTerm: text(d.utmTerm, 100),
    utmContent: text(d.utmContent, 100),
    // Where the link's routing rules or A/B variants sent the click; null for the link's own URL.
    destinationUrl: text(d.destinationUrl, 2000),
    route: text(d.route, 20),
  };
  if (d.linkType === 'campaign') {
    const alias = linkId === null ? null : (ctx.names.campaign.get(linkKey(e.organizationId, linkId)) ?? null);
    return [
      webhookEvent(e, 'click.campaign', 'click', {
        campaignId: linkId,
        alias,
        cid: text(d.cid, 100),
        tracker: text(d.tracker, 100),
        ...common,
      }),
    ];
  }
  const shortCode = linkId === null ? null : (ctx.names.url.get(linkKey(e.organizationId, linkId)) ?? null);
  return [webhookEvent(e, 'click.url', 'click', { urlId: linkId, shortCode, ...common })];
}

export const CLICK_EVENTS = {
  // Clicks have a durable consumer of their own: their backlog and lag are the ones that matter,
  // and a problem with any other event type never holds them up.
  click: defineEvent<ClickData>()({
    category: 'click',
    olap: { table: 'clicks', consumer: 'olap-clicks', toRow: clickRow },
    webhooks: { categories: ['click'], toEvents: clickWebhookEvents },
  }),
};
