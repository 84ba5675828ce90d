// Which event types land in which ClickHouse table, and how an envelope becomes a row.
import { createDeepLinkRoutes } from './deep-link-events.js';
import type { ClickEnricher } from './enrich.js';
import type { EventEnvelope } from './envelope.js';
import { createJourneyRoutes } from './journey-events.js';
import type { TableRoute } from './olap-writer.js';
import { num, str, withEventColumns } from './row-values.js';

export function createEventTableRoutes(deps: { enrich: ClickEnricher }): Record<string, TableRoute> {
  return {
    ...createDeepLinkRoutes(deps),
    ...createJourneyRoutes(),
    api_request: {
      table: 'api_requests',
      toRow: (e: EventEnvelope) =>
        withEventColumns(e, {
          api_key_id: num(e.data.apiKeyId),
          method: str(e.data.method),
          route: str(e.data.route),
          status: num(e.data.status),
          duration_ms: num(e.data.durationMs),
          ip: str(e.data.ip),
          request_id: str(e.data.requestId),
        }),
    },
    click: {
      table: 'clicks',
      toRow: (e: EventEnvelope) => {
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
        });
      },
    },
  };
}
