// A list's rows as cards, for a phone where a table's columns do not fit: the first column heads
// the card, each other column with a header is a term and its value (a long one, such as a
// destination, cut to two lines), and the columns without a header (the row's buttons) close it.
// The row's checkbox sits beside it, and the one for the whole page above the cards.
import { Box, Card, Group, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { Column } from './DataTable';

export function DataCards<T, K extends string | number>({
  rows,
  columns,
  rowKey,
  pageBox,
  rowBox,
  testId,
}: {
  rows: T[];
  columns: Column<T>[];
  rowKey: (row: T) => K;
  /** The page's checkbox; nothing without a selection. */
  pageBox: ReactNode;
  rowBox: (row: T) => ReactNode;
  testId?: string;
}) {
  const [first, ...rest] = columns;
  const terms = rest.filter((column) => column.header);
  const actions = rest.filter((column) => !column.header);
  return (
    <Stack gap="xs">
      {pageBox}
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} data-testid={testId}>
        {rows.map((row) => (
          <Card withBorder padding="sm" component="li" key={rowKey(row)}>
            <Group wrap="nowrap" align="flex-start" gap="sm">
              {rowBox(row)}
              <Stack gap={6} style={{ minWidth: 0, flex: 1 }}>
                {first && <Box style={{ overflowWrap: 'anywhere' }}>{first.cell(row)}</Box>}
                {terms.length > 0 && (
                  <Box component="dl" m={0}>
                    {terms.map((column) => (
                      <Group
                        key={column.header}
                        justify="space-between"
                        align="baseline"
                        gap="xs"
                        wrap={column.wrap ? 'wrap' : 'nowrap'}
                      >
                        <Text component="dt" size="xs" c="dimmed">
                          {column.header}
                        </Text>
                        {column.wrap ? (
                          <Text
                            component="dd"
                            m={0}
                            size="sm"
                            lineClamp={2}
                            w="100%"
                            style={{ overflowWrap: 'anywhere' }}
                            data-testid="card-long-value"
                          >
                            {column.cell(row)}
                          </Text>
                        ) : (
                          <Box component="dd" m={0} ta="right" style={{ minWidth: 0 }}>
                            {column.cell(row)}
                          </Box>
                        )}
                      </Group>
                    ))}
                  </Box>
                )}
                {actions.length > 0 && (
                  <Group gap={4}>
                    {actions.map((column, i) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: the columns without a header are fixed for the list
                      <Box key={i}>{column.cell(row)}</Box>
                    ))}
                  </Group>
                )}
              </Stack>
            </Group>
          </Card>
        ))}
      </Stack>
    </Stack>
  );
}
