// A ranked list: each name with its clicks and a bar for its share, numbers in the page's locale.
import { Progress, Stack, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TopItem } from '../api';

export function TopList({ items, translate }: { items: TopItem[]; translate?: (name: string) => string }) {
  const { i18n } = useTranslation();
  return (
    <Stack gap={6} component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
      {items.map((item) => (
        <li key={item.name}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="sm" truncate>
              {translate ? translate(item.name) : item.name}
            </Text>
            <Text size="sm" fw={500} style={{ whiteSpace: 'nowrap' }}>
              {item.count.toLocaleString(i18n.language)}{' '}
              <Text span c="dimmed" size="xs">
                ({item.percentage.toLocaleString(i18n.language)}%)
              </Text>
            </Text>
          </Group>
          <Progress value={item.percentage} size="sm" aria-hidden />
        </li>
      ))}
    </Stack>
  );
}
