// The busiest links of a period: each one's name (opening its dashboard), kind and address, its
// clicks and its share of the period's clicks, and with the comparison on its change against the
// previous period.
import { Anchor, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { DashboardData } from '../api';
import { navigate, pathOfStats } from '../navigation';
import { RowChange } from './figures';

export function TopLinks({ links }: { links: DashboardData['topLinks'] }) {
  const { t, i18n } = useTranslation();
  return (
    <Table.ScrollContainer minWidth={320}>
      <Table>
        <Table.Tbody>
          {links.map((l) => (
            <Table.Tr key={`${l.type}:${l.id}`}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                <Anchor
                  href={pathOfStats(l.type, l.id)}
                  onClick={(event) => {
                    event.preventDefault();
                    navigate(pathOfStats(l.type, l.id));
                  }}
                >
                  {l.label}
                </Anchor>
                <Text size="xs" c="dimmed">
                  {l.type === 'campaign' ? t('dashboard.campaign') : t('dashboard.shortUrl')} · {l.address}
                </Text>
              </Table.Td>
              <Table.Td ta="right">{l.count.toLocaleString(i18n.language)}</Table.Td>
              <Table.Td ta="right" c="dimmed">
                {l.percentage.toLocaleString(i18n.language)}%
              </Table.Td>
              {l.compared !== undefined && (
                <Table.Td ta="right">
                  <RowChange compared={l.compared} />
                </Table.Td>
              )}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
