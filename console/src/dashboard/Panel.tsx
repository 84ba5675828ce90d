// A dashboard panel: its title, a CSV download of the same figures (the console API makes it
// from the same query), and, when it has nothing to show, why. A panel that reads its own figures
// (usePanelFigures) shows their loading and error states too.
import { Anchor, Card, Group, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { QueryStatus } from '../components/QueryStatus';

/** What a panel that reads its own figures is given besides its subject: the organization and the
 * period's query (from, to, zone), the same the dashboard's other figures are read with. */
export interface PanelScope {
  orgId: number;
  query: Record<string, string>;
}

/** A panel's own figures about `subject`, from `path` below the organization, for the period. */
export function usePanelFigures<T>({ orgId, query }: PanelScope, name: string, subject: object, path: string) {
  return useQuery({
    queryKey: ['org', orgId, name, subject, query],
    queryFn: () => api<T>('GET', `/organizations/${orgId}/${path}?${new URLSearchParams(query)}`),
  });
}

export function Panel({
  title,
  csv,
  empty,
  figures,
  children,
}: {
  title: string;
  csv?: string;
  empty?: string | false;
  /** The panel's own figures (usePanelFigures): on their way, or why they did not come. */
  figures?: { isPending: boolean; error: Error | null; refetch: () => unknown };
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
        <>
          {figures && <QueryStatus query={figures} />}
          {children}
        </>
      )}
    </Card>
  );
}
