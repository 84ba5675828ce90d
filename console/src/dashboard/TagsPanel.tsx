// Clicks by tag on the organization's dashboard: a bar per tag (in the tag's colour) of the
// period's clicks on the links that carry it now, with its visitors, for the same period, zone and
// filters as the other panels. A click on a link with two tags counts for both. Selecting a bar,
// or a tag's name in the list below it (keyboard), filters the whole dashboard to that tag. With the
// comparison on, each tag in the list shows its change against the previous period.
import { useTranslation } from 'react-i18next';
import { Chart } from './Chart';
import { type FigureChange, seriesOption } from './figures';
import { Panel, type PanelScope, usePanelFigures } from './Panel';
import { TopList } from './TopList';

interface TagClicks {
  id: number;
  name: string;
  color: string;
  clicks: number;
  visitors: number;
  compared?: FigureChange | null;
}

export function TagsPanel({
  onPick,
  total,
  compare,
  ...scope
}: PanelScope & { onPick: (tag: string) => void; total: number; compare: boolean }) {
  const { t, i18n } = useTranslation();
  const figures = usePanelFigures<{ tags: TagClicks[] }>(
    { ...scope, query: { ...scope.query, compare: compare ? 'previous' : 'off' } },
    'tag-clicks',
    {},
    'dashboard/tags',
  );
  const n = (value: number) => value.toLocaleString(i18n.language);
  const tags = figures.data?.tags;
  const clicked = tags?.filter((tag) => tag.clicks > 0);
  const empty =
    tags?.length === 0 ? t('dashboard.tags.none') : clicked?.length === 0 ? t('dashboard.tags.noClicks') : false;
  return (
    <Panel title={t('dashboard.tags.title')} empty={empty} figures={figures}>
      {clicked && clicked.length > 0 && (
        <>
          <Chart
            label={t('dashboard.tags.label', { total: n(total) })}
            testId="tag-clicks-table"
            table={{
              head: [t('dashboard.tags.tag'), t('dashboard.clicks'), t('dashboard.visitors')],
              rows: clicked.map((tag) => [tag.name, tag.clicks, tag.visitors]),
            }}
            height={Math.max(160, 32 * clicked.length + 48)}
            onPick={(index) => {
              const tag = clicked[index];
              if (tag) onPick(tag.name);
            }}
            option={{
              ...seriesOption({
                categories: clicked.map((tag) => tag.name),
                format: n,
                series: [
                  {
                    type: 'bar',
                    name: t('dashboard.clicks'),
                    data: clicked.map((tag) => ({ value: tag.clicks, itemStyle: { color: tag.color } })),
                  },
                ],
              }),
              // Horizontal bars: tag names can be long.
              grid: { left: 8, right: 24, top: 8, bottom: 24, containLabel: true },
              xAxis: { type: 'value', minInterval: 1, axisLabel: { formatter: n } },
              yAxis: { type: 'category', inverse: true, data: clicked.map((tag) => tag.name) },
            }}
          />
          <TopList
            items={clicked.map((tag) => ({
              name: tag.name,
              count: tag.clicks,
              percentage: total > 0 ? Math.round((tag.clicks / total) * 1000) / 10 : 0,
              compared: tag.compared,
            }))}
            pick={{
              label: (item) => t('dashboard.filters.pick', { filter: t('dashboard.tags.chip', { tag: item.name }) }),
              onPick: (item) => onPick(item.name),
            }}
          />
        </>
      )}
    </Panel>
  );
}
