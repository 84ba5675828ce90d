// A link's clicks per destination on its dashboard: each destination its rules, variants and the
// link itself sent clicks to, with the count and share, for the period the dashboard shows; and
// what the panel says when the period has no clicks.
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { DestinationsPanel } from '../src/dashboard/DestinationsPanel';
import { renderConsole, serveApi } from './render';

const query = { startDate: '2026-11-01', endDate: '2026-11-07', timeZone: 'Asia/Seoul' };

describe('clicks per destination', () => {
  it("lists the link's destinations by clicks, for the dashboard's period", async () => {
    const sent = serveApi({
      'GET /organizations/1/urls/42/stats': {
        status: 200,
        body: {
          destinationStats: [
            { url: 'https://example.com/a', count: 60, percentage: 60 },
            { url: 'https://example.com/b', count: 40, percentage: 40 },
          ],
        },
      },
    });
    renderConsole(<DestinationsPanel orgId={1} link={{ type: 'url', id: 42 }} query={query} />);
    const panel = screen.getByRole('region', { name: '목적지별 클릭' });
    const rows = await within(panel).findAllByRole('listitem');
    expect(rows.map((r) => r.textContent)).toEqual(['https://example.com/a60 (60%)', 'https://example.com/b40 (40%)']);
    expect(sent[0]?.path).toBe(
      '/organizations/1/urls/42/stats?startDate=2026-11-01&endDate=2026-11-07&timeZone=Asia%2FSeoul',
    );
  });

  it('says what it will show once the period has clicks', async () => {
    serveApi({ 'GET /organizations/1/campaigns/5/stats': { status: 200, body: { destinationStats: [] } } });
    renderConsole(<DestinationsPanel orgId={1} link={{ type: 'campaign', id: 5 }} query={query} />);
    expect(await screen.findByText(/이 기간에는 클릭이 없습니다. 클릭이 생기면/)).toBeTruthy();
  });
});
