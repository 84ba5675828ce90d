// The one table every list screen shows: the list's loading and error state (QueryStatus), what to
// say when it is empty, the rows in a scrolling table (one column a header and a cell), and the
// page picker when there is more than one page.
import { Pagination, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { QueryStatus } from './QueryStatus';

export interface Column<T> {
  /** The header's text; empty for a column of actions. */
  header?: string;
  cell: (row: T) => ReactNode;
  align?: 'right';
  /** Long values (addresses) wrap anywhere instead of widening the table ('free': with no width cap). */
  wrap?: boolean | 'free';
}

export interface Paging {
  /** Zero-based, as the API counts. */
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  label: string;
}

export function DataTable<T>({
  query,
  rows,
  rowKey,
  columns,
  empty,
  minWidth = 720,
  paging,
  plain = false,
  testId,
}: {
  /** The list's query; none when the rows are part of data already shown. */
  query?: { isPending: boolean; error: Error | null; refetch: () => unknown };
  /** Undefined while the list has not come. */
  rows: T[] | undefined;
  rowKey: (row: T) => string | number;
  columns: Column<T>[];
  /** What to say when the list is empty: what to do next (a list that is never empty has none). */
  empty?: ReactNode;
  minWidth?: number;
  paging?: Paging | undefined;
  /** Not striped nor highlighted on hover ('striped': striped only). */
  plain?: boolean | 'striped';
  testId?: string;
}) {
  return (
    <>
      {query && <QueryStatus query={query} />}
      {rows && rows.length === 0 && empty && <Text c="dimmed">{empty}</Text>}
      {rows && rows.length > 0 && (
        <Table.ScrollContainer minWidth={minWidth}>
          <Table striped={plain !== true} highlightOnHover={!plain} data-testid={testId}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column, i) => (
                  <Table.Th key={column.header ?? i} ta={column.align}>
                    {column.header}
                  </Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={rowKey(row)}>
                  {columns.map((column, i) => (
                    <Table.Td
                      key={column.header ?? i}
                      ta={column.align}
                      {...(column.wrap ? { style: { overflowWrap: 'anywhere' } } : {})}
                      {...(column.wrap === true ? { maw: 280 } : {})}
                    >
                      {column.cell(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {paging && paging.totalPages > 1 && (
        <Pagination
          total={paging.totalPages}
          value={paging.page + 1}
          onChange={(p) => paging.onChange(p - 1)}
          aria-label={paging.label}
        />
      )}
    </>
  );
}
