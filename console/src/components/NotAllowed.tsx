// A screen the member's role may not open: its heading stays, so the page still says where one is,
// and a note says which role may.
import { Alert } from '@mantine/core';
import { Screen } from './Screen';

export function NotAllowed({ heading, message }: { heading: string; message: string }) {
  return (
    <Screen heading={heading}>
      <Alert color="gray">{message}</Alert>
    </Screen>
  );
}
