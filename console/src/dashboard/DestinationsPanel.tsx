// Clicks per destination of one link (contract: "Routing rules and A/B tests"): how many of the
// period's clicks each rule, variant or the link's own destination received, from the link's
// Service API statistics for the same period and zone, as a ranked list with bars.
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { api, type DestinationStat } from '../api';
import { QueryStatus } from '../components/QueryStatus';
import { Panel } from './Panel';
import { TopList } from './TopList';

export function DestinationsPanel({
  orgId,
  link,
  query,
}: {
  orgId: number;
  link: { type: 'url' | 'campaign'; id: number };
  query: Record<string, string>;
}) {
  const { t } = useTranslation();
  const path = `/organizations/${orgId}/${link.type === 'url' ? 'urls' : 'campaigns'}/${link.id}/stats`;
  const stats = useQuery({
    queryKey: ['org', orgId, 'destinations', link.type, link.id, query],
    queryFn: () => api<{ destinationStats: DestinationStat[] }>('GET', `${path}?${new URLSearchParams(query)}`),
  });
  const items = stats.data?.destinationStats;
  return (
    <Panel title={t('dashboard.destinations')} empty={items?.length === 0 && t('dashboard.noDestinations')}>
      <QueryStatus query={stats} />
      {items && <TopList items={items.map((d) => ({ name: d.url, count: d.count, percentage: d.percentage }))} />}
    </Panel>
  );
}
