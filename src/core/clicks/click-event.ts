// The one builder of `click` events: the redirect and the mobile SDK's reported clicks both make
// theirs here, so every click carries the same fields whatever its source. It runs on the
// redirect's hot path: one event object, no parsing (the caller hands the parameters it read).
import type { ClickSource } from '../../ingest/click-events.js';
import type { EventOf } from '../../ingest/event-registry.js';
import { uuidv7 } from '../../shared/ids.js';
import type { Routed } from '../routing/routing-rules.js';

/** What a click is counted from. Absent headers and parameters are recorded as ''. */
export interface ClickInput {
  link: { kind: 'url' | 'campaign'; id: number; organizationId: number };
  host: string;
  ip: string;
  userAgent: string | undefined;
  referrer: string | undefined;
  acceptLanguage: string | undefined;
  /** Campaign click parameters; ignored for a short URL. */
  cid?: string;
  tracker?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  utmTerm?: string;
  utmContent?: string;
  /** A share-preview fetcher (counted as bot traffic). */
  bot: boolean;
  source: ClickSource;
  /** The number handed back to the mobile SDK for the click it reported. */
  clickId?: number;
  /** Where a link's rules or variants sent the click; absent for a link with neither. */
  routed?: Routed | undefined;
  /** The deep-link token a phone click on a link with an app was given with its landing page. */
  deepLinkToken?: string | undefined;
}

export function clickEvent(c: ClickInput): EventOf<'click'> {
  const campaign = c.link.kind === 'campaign';
  return {
    eventId: uuidv7(),
    type: 'click',
    occurredAt: Date.now(),
    organizationId: c.link.organizationId,
    data: {
      linkType: c.link.kind,
      linkId: c.link.id,
      host: c.host,
      cid: campaign ? (c.cid ?? '') : '',
      tracker: campaign ? (c.tracker ?? '') : '',
      referrer: c.referrer ?? '',
      userAgent: c.userAgent ?? '',
      ip: c.ip,
      acceptLanguage: (c.acceptLanguage ?? '').slice(0, 100),
      utmSource: c.utmSource ?? '',
      utmMedium: c.utmMedium ?? '',
      utmCampaign: c.utmCampaign ?? '',
      utmTerm: c.utmTerm ?? '',
      utmContent: c.utmContent ?? '',
      bot: c.bot,
      source: c.source,
      clickId: c.clickId,
      destinationUrl: c.routed?.url,
      route: c.routed?.route,
      deepLinkToken: c.deepLinkToken,
    },
  };
}
