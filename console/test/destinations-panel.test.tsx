// A link's clicks and conversions per destination on its dashboard, as an A/B result table: each
// variant (with its weight), rule and the link's own destination, with clicks and share,
// conversions, rate and revenue, for the period the dashboard shows; under it, which variant leads
// and whether the numbers can tell yet; and what the panel says when the period has no clicks.
import { screen, within } from '@testing-library/react';
import i18next from 'i18next';
import { afterEach, describe, expect, it } from 'vitest';
import type { DestinationStat } from '../src/api';
import { abRows, abVerdict } from '../src/dashboard/ab-result';
import { DestinationsPanel } from '../src/dashboard/DestinationsPanel';
import { renderConsole, serveApi } from './render';

const query = { startDate: '2026-11-01', endDate: '2026-11-07', timeZone: 'Asia/Seoul' };
const A = 'https://example.com/a';
const B = 'https://example.com/b';

function stat(url: string, count: number, conversions: number, more: Partial<DestinationStat> = {}): DestinationStat {
  return {
    url,
    count,
    percentage: 0,
    conversions,
    conversionRate: count === 0 ? 0 : Math.round((conversions / count) * 1000) / 10,
    installs: 0,
    goals: [],
    revenue: [],
    ...more,
  };
}

const split = {
  originalUrl: 'https://example.com/',
  routingRules: [{ conditions: { countries: ['KR'] }, url: 'https://example.com/kr' }],
  variants: [
    { url: A, weight: 50 },
    { url: B, weight: 50 },
  ],
};

const rowTexts = async (panel: HTMLElement) =>
  (await within(panel).findAllByRole('row'))
    .slice(1)
    .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));

afterEach(async () => {
  await i18next.changeLanguage('ko');
});

describe('clicks and conversions per destination', () => {
  it("shows each row's clicks against the previous period's to the same address, in words too", async () => {
    serveApi({
      'GET /organizations/1/urls/42/stats': {
        status: 200,
        body: { destinationStats: [stat(A, 30, 3, { percentage: 60 }), stat(B, 20, 1, { percentage: 40 })] },
      },
      'GET /organizations/1/urls/42': { status: 200, body: split },
    });
    renderConsole(
      <DestinationsPanel
        orgId={1}
        link={{ type: 'url', id: 42 }}
        query={query}
        previous={[
          { url: A, count: 20 },
          { url: 'https://example.com/kr', count: 5 },
        ]}
      />,
    );
    const panel = screen.getByRole('region', { name: '목적지별 클릭과 전환' });
    await within(panel).findByText('변형 A');
    // A: 20 → 30; B: none before; the rule had 5 before and none now, so it has no row.
    expect((await rowTexts(panel)).map((r) => r[2])).toEqual([
      '30 (60%) ▲ 증가 50% (이전 기간: 20)',
      '20 (40%) 신규 이전 기간에는 없었음 (이전 기간: 0)',
    ]);
  });

  it("shows each variant's weight, clicks, conversions, rate and revenue, for the dashboard's period", async () => {
    const sent = serveApi({
      'GET /organizations/1/urls/42/stats': {
        status: 200,
        body: {
          destinationStats: [
            stat(A, 200, 40, {
              percentage: 45.5,
              revenue: [{ currency: 'KRW', amount: 120000, purchases: 3 }],
            }),
            stat(B, 200, 20, { percentage: 45.5 }),
            stat('https://example.com/kr', 40, 0, { percentage: 9.1 }),
          ],
        },
      },
      'GET /organizations/1/urls/42': { status: 200, body: split },
    });
    renderConsole(<DestinationsPanel orgId={1} link={{ type: 'url', id: 42 }} query={query} />);
    const panel = screen.getByRole('region', { name: '목적지별 클릭과 전환' });
    await within(panel).findByText('변형 A');
    expect(
      within(panel)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['변형, 규칙 또는 목적지', '비율', '클릭', '전환', '전환율', '매출']);
    expect(await rowTexts(panel)).toEqual([
      [`변형 A${A}`, '50%', '200 (45.5%)', '40', '20%', '₩120,000'],
      [`변형 B${B}`, '50%', '200 (45.5%)', '20', '10%', '–'],
      ['규칙 1https://example.com/kr', '–', '40 (9.1%)', '0', '0%', '–'],
    ]);
    expect(within(panel).getByTestId('ab-verdict').textContent).toBe(
      '변형 A의 전환율이 더 높습니다: 20%, 변형 B은(는) 10%. 이만큼의 차이는 우연이기 어렵습니다(신뢰도 95%).',
    );
    expect(sent.map((r) => r.path)).toContain(
      '/organizations/1/urls/42/stats?startDate=2026-11-01&endDate=2026-11-07&timeZone=Asia%2FSeoul',
    );
  });

  it('says when the numbers are too small to tell, in English too, and lists a variant without clicks', async () => {
    await i18next.changeLanguage('en');
    serveApi({
      'GET /organizations/1/campaigns/5/stats': {
        status: 200,
        body: { destinationStats: [stat(A, 20, 3, { percentage: 100 })] },
      },
      'GET /organizations/1/campaigns/5': { status: 200, body: split },
    });
    renderConsole(<DestinationsPanel orgId={1} link={{ type: 'campaign', id: 5 }} query={query} />);
    const panel = screen.getByRole('region', { name: 'Clicks and conversions per destination' });
    await within(panel).findByText('Variant B');
    expect(await rowTexts(panel)).toEqual([
      [`Variant A${A}`, '50%', '20 (100%)', '3', '15%', '–'],
      [`Variant B${B}`, '50%', '0 (0%)', '0', '0%', '–'],
    ]);
    expect(within(panel).getByTestId('ab-verdict').textContent).toBe(
      'Variant A is ahead so far (15% against 0% for Variant B), but there are too few clicks or conversions to tell yet.',
    );
  });

  it('shows the addresses alone when the link cannot be read', async () => {
    serveApi({ 'GET /organizations/1/urls/7/stats': { status: 200, body: { destinationStats: [stat(A, 3, 1)] } } });
    renderConsole(<DestinationsPanel orgId={1} link={{ type: 'url', id: 7 }} query={query} />);
    const panel = screen.getByRole('region', { name: '목적지별 클릭과 전환' });
    expect(await rowTexts(panel)).toEqual([[A, '–', '3 (0%)', '1', '33.3%', '–']]);
    expect(within(panel).queryByTestId('ab-verdict')).toBeNull();
  });

  it('says what it will show once the period has clicks', async () => {
    serveApi({ 'GET /organizations/1/campaigns/5/stats': { status: 200, body: { destinationStats: [] } } });
    renderConsole(<DestinationsPanel orgId={1} link={{ type: 'campaign', id: 5 }} query={query} />);
    expect(await screen.findByText(/이 기간에는 클릭이 없습니다. 클릭이 생기면/)).toBeTruthy();
  });
});

describe('the A/B verdict', () => {
  const verdictOf = (a: [number, number], b: [number, number]) =>
    abVerdict(abRows([stat(A, a[0], a[1]), stat(B, b[0], b[1])], split)).kind;

  it.each([
    { a: [200, 40], b: [200, 20], kind: 'leads', why: '20% against 10% over 200 clicks each: z ≈ 2.8' },
    { a: [200, 20], b: [200, 40], kind: 'leads', why: 'the leader is whichever converts better' },
    { a: [200, 26], b: [200, 20], kind: 'unclear', why: '13% against 10%: z ≈ 0.9' },
    { a: [20, 3], b: [20, 1], kind: 'tooFew', why: 'fewer than 30 clicks each' },
    { a: [300, 3], b: [300, 1], kind: 'tooFew', why: 'too few conversions expected (4 in 600)' },
    { a: [100, 0], b: [100, 0], kind: 'noConversions', why: 'nothing converted' },
    { a: [100, 10], b: [100, 10], kind: 'even', why: 'the same rate' },
  ] as const)('$kind: $why', ({ a, b, kind }) => {
    expect(verdictOf([...a], [...b])).toBe(kind);
  });

  it('is none without two variants', () => {
    expect(abVerdict(abRows([stat(A, 100, 10)], { ...split, variants: [] })).kind).toBe('none');
  });
});
