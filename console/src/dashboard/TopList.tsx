// A ranked list: each name with its clicks and a bar for its share, numbers in the page's locale.
// Given `pick`, a name that can filter the dashboard is a button: selecting it (click or keyboard)
// shows only its clicks.
import { Progress, Stack, Group, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TopItem } from '../api';

export interface TopListPick {
  /** The button's accessible name for an item ("Show only Country: Japan"); null: the item filters nothing. */
  label: (item: TopItem) => string | null;
  onPick: (item: TopItem) => void;
}

export function TopList({
  items,
  translate,
  pick,
}: {
  items: TopItem[];
  translate?: (name: string) => string;
  pick?: TopListPick | undefined;
}) {
  const { i18n } = useTranslation();
  return (
    <Stack gap={6} component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
      {items.map((item) => {
        const name = translate ? translate(item.name) : item.name;
        const label = pick?.label(item) ?? null;
        return (
          <li key={item.name}>
            <Group justify="space-between" gap="xs" wrap="nowrap">
              {pick && label !== null ? (
                <UnstyledButton
                  aria-label={label}
                  title={label}
                  onClick={() => pick.onPick(item)}
                  style={{ minWidth: 0, textDecoration: 'underline dotted' }}
                >
                  <Text size="sm" truncate>
                    {name}
                  </Text>
                </UnstyledButton>
              ) : (
                <Text size="sm" truncate>
                  {name}
                </Text>
              )}
              <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
                {item.count.toLocaleString(i18n.language)}{' '}
                <Text span c="dimmed" size="xs">
                  ({item.percentage.toLocaleString(i18n.language)}%)
                </Text>
              </Text>
            </Group>
            <Progress value={item.percentage} size="sm" aria-hidden />
          </li>
        );
      })}
    </Stack>
  );
}
