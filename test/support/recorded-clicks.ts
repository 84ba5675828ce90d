// Clicks as the redirect records them, at chosen instants, through the real pipeline (bus, writer,
// ClickHouse and its rollups): what statistics tests feed in before reading figures out.
import { expect } from 'vitest';
import { uuidv7 } from '../../src/shared/ids.js';
import { eventually, type TestService } from './service.js';

const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

export interface Click {
  at: string;
  userAgent?: string;
  ip?: string;
  referrer?: string;
  cid?: string;
  tracker?: string;
  utmSource?: string;
  utmMedium?: string;
  utmCampaign?: string;
  /** Where the link sent the click (a rule's or variant's address); none: its originalUrl. */
  destinationUrl?: string;
  bot?: boolean;
}

export async function recordClicks(
  svc: TestService,
  organizationId: number,
  linkType: 'url' | 'campaign',
  linkId: number,
  clicks: Click[],
): Promise<void> {
  for (const c of clicks) {
    svc.container.events.record({
      eventId: uuidv7(),
      type: 'click',
      occurredAt: Date.parse(c.at),
      organizationId,
      data: {
        linkType,
        linkId,
        host: 'localhost',
        cid: c.cid ?? '',
        tracker: c.tracker ?? '',
        referrer: c.referrer ?? '',
        userAgent: c.userAgent ?? IPHONE,
        ip: c.ip ?? '211.234.10.1',
        acceptLanguage: 'ko-KR',
        bot: c.bot ?? false,
        utmSource: c.utmSource ?? '',
        utmMedium: c.utmMedium ?? '',
        utmCampaign: c.utmCampaign ?? '',
        utmTerm: '',
        utmContent: '',
        ...(c.destinationUrl === undefined ? {} : { destinationUrl: c.destinationUrl }),
      },
    });
  }
  await svc.container.events.flush();
  await eventually(
    async () => {
      const [row] = await svc.clickhouse<{ c: number }>(
        'SELECT toUInt64(count()) AS c FROM clicks WHERE link_type = {t:String} AND link_id = {id:UInt64}',
        { t: linkType, id: linkId },
      );
      return Number(row?.c) >= clicks.length;
    },
    15_000,
    'clicks written',
  );
  expect(await svc.container.bus.drain(10_000)).toBe(true);
}
