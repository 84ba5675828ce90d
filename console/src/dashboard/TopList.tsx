// A ranked list: each name with its clicks and a bar for its share, numbers in the page's locale.
// Given `pick`, a name that can filter the dashboard is a button: selecting it (click or keyboard)
// shows only its clicks. With the comparison on, each row shows its change against the same row
// of the previous period (RowChange).
import { Progress, Stack, Group, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { TopItem } from '../api';
import { type FigureChange, RowChange } from './figures';

/** A row of a list, with its change against the previous period when the dashboard compares. */
type Row = TopItem & { compared?: FigureChange | null | undefined };

/** The keys of R whose values are of type V. */
type KeyOf<R, V> = { [K in keyof R]: R[K] extends V ? K : never }[keyof R];

/**
 * A panel's rows as list items: each row's name and count (named by their fields), with the change
 * of the row at the same place in the previous period's comparison (the server answers both in the
 * same order).
 */
export function rowsOf<R extends { percentage: number }>(
  rows: readonly R[],
  name: KeyOf<R, string>,
  count: KeyOf<R, number>,
  compared: readonly ({ compared?: FigureChange | null } | undefined)[] | undefined,
): Row[] {
  return rows.map((row, i) => ({
    name: row[name] as string,
    count: row[count] as number,
    percentage: row.percentage,
    compared: compared?.[i]?.compared,
  }));
}

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
  items: Row[];
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
                </Text>{' '}
                <RowChange compared={item.compared} />
              </Text>
            </Group>
            <Progress value={item.percentage} size="sm" aria-hidden />
          </li>
        );
      })}
    </Stack>
  );
}
