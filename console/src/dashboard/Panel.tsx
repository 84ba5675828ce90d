// A dashboard panel: its title, a CSV download of the same figures (the console API makes it
// from the same query), and, when it has nothing to show, why.
import { Anchor, Card, Group, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export function Panel({
  title,
  csv,
  empty,
  children,
}: {
  title: string;
  csv?: string;
  empty?: string | false;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Card withBorder component="section" aria-label={title}>
      <Group justify="space-between" mb="xs" wrap="nowrap">
        <Title order={3} size="h5">
          {title}
        </Title>
        {csv && (
          <Anchor href={csv} download size="sm" aria-label={`${t('dashboard.csv')}: ${title}`}>
            CSV
          </Anchor>
        )}
      </Group>
      {empty ? (
        <Text c="dimmed" size="sm">
          {empty}
        </Text>
      ) : (
        children
      )}
    </Card>
  );
}
