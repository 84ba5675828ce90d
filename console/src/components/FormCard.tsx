// A screen's form for making something: a titled card, and when the member's role may not, a line
// saying which role may (the fields themselves are disabled by the screen).
import { Card, Text, Title } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';

export function FormCard({
  title,
  readOnly,
  onSubmit,
  children,
}: {
  title: string;
  readOnly?: string | false;
  onSubmit: () => void;
  children: ReactNode;
}) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <Card withBorder>
      <form onSubmit={submit}>
        <Title order={3} size="h5" mb="xs">
          {title}
        </Title>
        {readOnly && (
          <Text size="sm" c="dimmed" mb="xs">
            {readOnly}
          </Text>
        )}
        {children}
      </form>
    </Card>
  );
}
