// Clicks per destination of one link (contract: "Routing rules and A/B tests"): how many of the
// period's clicks each rule, variant or the link's own destination received, from the link's
// Service API statistics for the same period and zone, as a ranked list with bars.
import { useTranslation } from 'react-i18next';
import type { DestinationStat } from '../api';
import { Panel, type PanelScope, usePanelFigures } from './Panel';
import { TopList } from './TopList';

export function DestinationsPanel({ link, ...scope }: PanelScope & { link: { type: 'url' | 'campaign'; id: number } }) {
  const { t } = useTranslation();
  const stats = usePanelFigures<{ destinationStats: DestinationStat[] }>(
    scope,
    'destinations',
    link,
    `${link.type === 'url' ? 'urls' : 'campaigns'}/${link.id}/stats`,
  );
  const items = stats.data?.destinationStats;
  return (
    <Panel
      title={t('dashboard.destinations')}
      empty={items?.length === 0 && t('dashboard.noDestinations')}
      figures={stats}
    >
      {items && <TopList items={items.map((d) => ({ name: d.url, count: d.count, percentage: d.percentage }))} />}
    </Panel>
  );
}
