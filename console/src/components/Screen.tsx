// A screen's frame, the same on every screen: its heading (with an action beside it, if any), a line
// on what the screen is for, and the notice of the last action, above the screen's own content.
import { Group, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function Screen({
  heading,
  aside,
  intro,
  notice,
  children,
}: {
  heading: string;
  /** An action beside the heading (an import button). */
  aside?: ReactNode;
  intro?: string;
  /** The screen's notice box (useNotice). */
  notice?: ReactNode;
  children: ReactNode;
}) {
  const title = <Title order={2}>{heading}</Title>;
  return (
    <Stack>
      {aside ? (
        <Group justify="space-between">
          {title}
          {aside}
        </Group>
      ) : (
        title
      )}
      {intro && (
        <Text c="dimmed" maw={720}>
          {intro}
        </Text>
      )}
      {notice}
      {children}
    </Stack>
  );
}
