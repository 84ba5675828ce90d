// The filters a click dashboard applies, as chips above its panels ("Country: Japan ×"): each
// removable on its own, or all at once. Values read as the panels name them: countries in the
// console's language, device types translated, links picked one by one by their title or short
// code (as the dashboard's answer names them; `#id` for an id of no link), everything else as recorded.
import { Button, CloseButton, Group, Pill, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DashboardData } from '../api';
import { type DashboardFilters, FILTER_KEYS, type FilterKey } from './dashboard-state';

/** How the dashboard names a country code and a filter's value, in the console's language. */
export function useFilterNames() {
  const { t, i18n } = useTranslation();
  return useMemo(() => {
    let regions: Intl.DisplayNames | undefined;
    try {
      regions = new Intl.DisplayNames([i18n.language], { type: 'region' });
    } catch {
      regions = undefined;
    }
    const country = (code: string) =>
      /^[A-Za-z]{2}$/.test(code) ? (regions?.of(code.toUpperCase()) ?? code) : t('dashboard.unknown');
    const value = (key: FilterKey, raw: string) => {
      if (key === 'country') return country(raw);
      if (key === 'deviceType') {
        const name = `${raw.charAt(0).toUpperCase()}${raw.slice(1).toLowerCase()}`;
        return t(`dashboard.device.${name}`, { defaultValue: raw });
      }
      return raw;
    };
    /** "Country: Japan". */
    const filter = (key: FilterKey, raw: string) =>
      t('dashboard.filters.chip', { key: t(`dashboard.filters.keys.${key}`), value: value(key, raw) });
    return { country, filter };
  }, [t, i18n.language]);
}

export function FilterChips({
  filters,
  links = [],
  onRemove,
  onClear,
}: {
  filters: DashboardFilters;
  /** The links the `url` and `campaign` filters pick, as the dashboard names them. */
  links?: DashboardData['chosenLinks'];
  onRemove: (key: FilterKey, value: string) => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const names = useFilterNames();
  const chips = FILTER_KEYS.flatMap((key) => (filters[key] ?? []).map((value) => ({ key, value })));
  if (chips.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('dashboard.filters.hint')}
      </Text>
    );
  return (
    <Group gap="xs" role="group" aria-label={t('dashboard.filters.label')} data-testid="filter-chips">
      {chips.map(({ key, value }) => {
        const label =
          key === 'url' || key === 'campaign'
            ? t('dashboard.filters.chip', {
                key: t(`dashboard.filters.keys.${key}`),
                value: links.find((l) => l.type === key && String(l.id) === value)?.label ?? `#${value}`,
              })
            : names.filter(key, value);
        return (
          <Pill key={`${key}:${value}`} size="lg" data-testid="filter-chip">
            <Group gap={4} wrap="nowrap">
              {label}
              <CloseButton
                size="xs"
                aria-label={t('dashboard.filters.remove', { filter: label })}
                onClick={() => onRemove(key, value)}
              />
            </Group>
          </Pill>
        );
      })}
      <Button size="compact-sm" variant="subtle" onClick={onClear}>
        {t('dashboard.filters.clear')}
      </Button>
    </Group>
  );
}
