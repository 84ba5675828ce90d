// Clicks by region and by city, shown only when the service's GeoIP database tells them
// (meta.geo: a City database as GEOIP_DB; the bundled one knows countries only). Selecting a region
// or a city filters every panel to its clicks, as a country does. A region is its ISO 3166-2 code
// beside its country's name in the console's language; a city is named as the database spells it.
import { useTranslation } from 'react-i18next';
import type { DashboardData } from '../api';
import { useFilterNames } from './FilterChips';
import { Panel } from './Panel';
import { TopList, type TopListPick } from './TopList';

export function PlacesPanels({
  dashboard: d,
  csv,
  pick,
}: {
  dashboard: DashboardData;
  /** The CSV address of a panel. */
  csv: (panel: string) => string;
  /** Selecting an item of the region or city list filters by its name. */
  pick: (key: 'region' | 'city') => TopListPick;
}) {
  const { t } = useTranslation();
  const { country } = useFilterNames();
  const empty = d.total === 0 ? t('dashboard.noClicks') : t('dashboard.places.none');
  const region = (code: string) => `${code} (${country(code.slice(0, 2))})`;
  return (
    <>
      {d.meta.geo.regions && (
        <Panel title={t('dashboard.places.regions')} csv={csv('regions')} empty={d.regions.length === 0 && empty}>
          <TopList items={d.regions} pick={pick('region')} translate={region} />
        </Panel>
      )}
      {d.meta.geo.cities && (
        <Panel title={t('dashboard.places.cities')} csv={csv('cities')} empty={d.cities.length === 0 && empty}>
          <TopList items={d.cities} pick={pick('city')} />
        </Panel>
      )}
    </>
  );
}
