// A screen the member's role may not open: its heading stays, so the page still says where one is,
// and a note says which role may.
import { Alert, Stack, Title } from '@mantine/core';

export function NotAllowed({ heading, message }: { heading: string; message: string }) {
  return (
    <Stack>
      <Title order={2}>{heading}</Title>
      <Alert color="gray">{message}</Alert>
    </Stack>
  );
}
