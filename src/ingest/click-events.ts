// The `click` event: what a click on a short URL or campaign link records (the redirect, and the
// mobile SDK's reported clicks), and how it becomes a row of the clicks table (sql/clickhouse/0002).
// User-agent parsing, geo and bot detection happen here, in the consumer, never on the redirect.
import type { EventRow } from '../shared/event-rows.js';
import type { ClickEnricher } from './enrich.js';
import { num, str, withEventColumns } from './row-values.js';
import type { WireEvent } from './envelope.js';

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
}

export function clickRow(e: WireEvent<ClickData>, deps: { enrich: ClickEnricher }): EventRow {
  const d = e.data;
  const userAgent = str(d.userAgent, 1000);
  const dims = deps.enrich({ userAgent, ip: str(d.ip), referrer: str(d.referrer) });
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
    ip: str(d.ip, 64),
    user_agent: userAgent,
    accept_language: str(d.acceptLanguage, 100),
    country: dims.country,
    device_type: dims.deviceType,
    os: dims.os,
    os_version: dims.osVersion,
    browser: dims.browser,
    // The edge already knows a preview fetcher; the parser catches the other automated clients.
    is_bot: d.bot === true || dims.isBot ? 1 : 0,
    // Clicks recorded before the field existed all came from the redirect.
    source: str(d.source, 20) || 'redirect',
    click_id: num(d.clickId),
  });
}
