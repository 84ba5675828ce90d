// A screen's form for making something: a titled card, and when the member's role may not, a line
// saying which role may (the fields themselves are disabled by the screen). A one-row form gives
// its button as `submit`: the fields, then the button, which a read-only form disables.
import { Button, Card, Group, Text, Title } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';

export function FormCard({
  title,
  readOnly,
  action,
  submit,
  children,
}: {
  title: string;
  readOnly?: string | false;
  /** What sending the form does (a useAction): called on submit, its button spins meanwhile. */
  action: { mutate: () => void; isPending: boolean };
  submit?: {
    label: string;
    /** Disabled for a reason other than the role (a required field still empty). */
    disabled?: boolean;
    /** The fields show their errors below them: the row aligns at their top, and the button comes
     * down to their inputs' line (below the labels) instead of following the errors. */
    errorsBelow?: boolean;
  };
  children: ReactNode;
}) {
  const send = (event: FormEvent) => {
    event.preventDefault();
    action.mutate();
  };
  return (
    <Card withBorder>
      <form onSubmit={send}>
        <Title order={3} size="h5" mb="xs">
          {title}
        </Title>
        {readOnly && (
          <Text size="sm" c="dimmed" mb="xs">
            {readOnly}
          </Text>
        )}
        {submit ? (
          <Group align={submit.errorsBelow ? 'flex-start' : 'flex-end'} wrap="wrap">
            {children}
            <Button
              type="submit"
              {...(submit.errorsBelow ? { mt: 24 } : {})}
              disabled={Boolean(readOnly) || submit.disabled === true}
              loading={action.isPending}
            >
              {submit.label}
            </Button>
          </Group>
        ) : (
          children
        )}
      </form>
    </Card>
  );
}
