// What a list shows while its data is on the way or could not come: a spinner, or the error with
// a way to try again. Nothing once the data is there.
import { Alert, Button, Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export function QueryStatus({ query }: { query: { isPending: boolean; error: Error | null; refetch: () => unknown } }) {
  const { t } = useTranslation();
  if (query.error) {
    return (
      <Alert color="red" role="alert" title={t('loadFailed')}>
        <Text size="sm" mb="xs">
          {query.error.message}
        </Text>
        <Button size="xs" variant="light" onClick={() => void query.refetch()}>
          {t('retry')}
        </Button>
      </Alert>
    );
  }
  return query.isPending ? <Loader aria-label={t('loading')} /> : null;
}
