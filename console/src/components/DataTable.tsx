// The one table every list screen shows: the list's loading and error state (QueryStatus), what to
// say when it is empty, the rows in a scrolling table (one column a header and a cell), and the
// page picker when there is more than one page. With a selection, a first column of checkboxes
// and one in the header that selects (or clears) every row of the page. At phone width a table's
// columns do not fit: each row is a card instead (DataCards), so every list fits a phone.
import { Checkbox, Pagination, Table, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { DataCards } from './DataCards';
import { QueryStatus } from './QueryStatus';

export interface Column<T> {
  /** The header's text; empty for a column of actions. */
  header?: string;
  cell: (row: T) => ReactNode;
  align?: 'right';
  /** Long values (addresses) wrap anywhere instead of widening the table ('free': with no width cap);
   * on a phone's card they are cut to two lines. */
  wrap?: boolean | 'free';
}

export interface Selection<K> {
  selected: ReadonlySet<K>;
  onChange: (selected: Set<K>) => void;
  /** A row's checkbox's name for screen readers ("Select: <name>"). */
  label: (key: K) => string;
  /** The header checkbox's name. */
  allLabel: string;
}

export interface Paging {
  /** Zero-based, as the API counts. */
  page: number;
  totalPages: number;
  onChange: (page: number) => void;
  label: string;
}

/** A list's query as the table reads it: its state, and its data when they are the rows. */
interface ListQuery<T> {
  isPending: boolean;
  error: Error | null;
  refetch: () => unknown;
  data?: T[] | unknown;
}

/** The rows: a list query's data, or rows given apart (a page of a paged answer, rows already shown). */
type RowSource<T> =
  | { query: ListQuery<T> & { data: T[] | undefined }; rows?: undefined }
  | {
      /** The list's query; none when the rows are part of data already shown. */
      query?: ListQuery<T>;
      /** Undefined while the list has not come. */
      rows: T[] | undefined;
    };

/** A row's key: its id unless said otherwise, which rows without an id must. */
type RowKey<T, K> = T extends { id: K } ? { rowKey?: (row: T) => K } : { rowKey: (row: T) => K };

export function DataTable<T, K extends string | number = string | number>(
  props: RowSource<T> &
    RowKey<T, K> & {
      columns: Column<T>[];
      /** What to say when the list is empty: what to do next (a list that is never empty has none). */
      empty?: ReactNode;
      minWidth?: number;
      paging?: Paging | undefined;
      /** Not striped nor highlighted on hover ('striped': striped only). */
      plain?: boolean | 'striped';
      testId?: string;
      selection?: Selection<K> | undefined;
    },
) {
  const { query, columns, empty, minWidth = 720, paging, plain = false, testId, selection } = props;
  const rows = props.rows ?? (query?.data as T[] | undefined);
  const rowKey = props.rowKey ?? ((row: T) => (row as { id: K }).id);
  const keys = (rows ?? []).map(rowKey);
  const chosen = keys.filter((key) => selection?.selected.has(key)).length;
  const toggle = (key: K, on: boolean) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    if (on) next.add(key);
    else next.delete(key);
    selection.onChange(next);
  };
  const togglePage = (on: boolean) => {
    if (!selection) return;
    const next = new Set(selection.selected);
    for (const key of keys) {
      if (on) next.add(key);
      else next.delete(key);
    }
    selection.onChange(next);
  };
  /** The page's checkbox: its name said in the table's header, shown above the cards. */
  const pageBox = (shown: boolean) =>
    selection && (
      <Checkbox
        {...(shown ? { label: selection.allLabel } : { 'aria-label': selection.allLabel })}
        checked={chosen > 0 && chosen === keys.length}
        indeterminate={chosen > 0 && chosen < keys.length}
        onChange={(e) => togglePage(e.currentTarget.checked)}
      />
    );
  const rowBox = (row: T) =>
    selection && (
      <Checkbox
        aria-label={selection.label(rowKey(row))}
        checked={selection.selected.has(rowKey(row))}
        onChange={(e) => toggle(rowKey(row), e.currentTarget.checked)}
      />
    );
  // Mantine's xs breakpoint (36em): phones, upright.
  const phone = useMediaQuery('(max-width: 36em)', false, { getInitialValueInEffect: false });
  return (
    <>
      {query && <QueryStatus query={query} />}
      {rows && rows.length === 0 && empty && <Text c="dimmed">{empty}</Text>}
      {rows && rows.length > 0 && phone && (
        <DataCards
          rows={rows}
          columns={columns}
          rowKey={rowKey}
          pageBox={pageBox(true)}
          rowBox={rowBox}
          {...(testId ? { testId } : {})}
        />
      )}
      {rows && rows.length > 0 && !phone && (
        <Table.ScrollContainer minWidth={minWidth}>
          <Table striped={plain !== true} highlightOnHover={!plain} data-testid={testId}>
            <Table.Thead>
              <Table.Tr>
                {selection && <Table.Th w={40}>{pageBox(false)}</Table.Th>}
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
                  {selection && <Table.Td>{rowBox(row)}</Table.Td>}
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
