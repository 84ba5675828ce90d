// Presets (today, 7, 30, 90 days, this month) or custom dates, and the time zone the dates and
// hours are counted in.
import { Group, SegmentedControl, Select, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { type PeriodChoice, type Preset, timeZones } from './period';

const PRESETS: Preset[] = ['today', '7d', '30d', '90d', 'month', 'custom'];

export function PeriodPicker({ value, onChange }: { value: PeriodChoice; onChange: (next: PeriodChoice) => void }) {
  const { t } = useTranslation();
  return (
    <Group align="flex-end" wrap="wrap" gap="sm">
      <SegmentedControl
        aria-label={t('dashboard.period')}
        value={value.preset}
        onChange={(p) => onChange({ ...value, preset: p as Preset })}
        data={PRESETS.map((p) => ({ value: p, label: t(`dashboard.presets.${p}`) }))}
      />
      {value.preset === 'custom' &&
        (['from', 'to'] as const).map((end) => (
          <TextInput
            key={end}
            type="date"
            label={t(`dashboard.${end}`)}
            value={value[end]}
            onChange={(e) => onChange({ ...value, [end]: e.currentTarget.value })}
            w={160}
          />
        ))}
      <Select
        label={t('dashboard.timeZone')}
        data={timeZones()}
        value={value.timeZone}
        onChange={(z) => z && onChange({ ...value, timeZone: z })}
        searchable
        allowDeselect={false}
        w={220}
      />
    </Group>
  );
}
