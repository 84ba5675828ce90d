// Sharing a short URL's statistics: a read-only page anyone with its address can open without
// signing in. The address is shown once, right after it is made (the server keeps only its hash);
// sharing again makes a new one and the old stops working; stopping ends it.
import { Button, Code, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '../api';
import { CopyValue } from '../components/CopyValue';
import { useNotice } from '../components/Notice';
import { useAction } from '../components/use-action';

export function ShareStats({ orgId, urlId }: { orgId: number; urlId: number }) {
  const { t } = useTranslation();
  const { notify, noticeBox } = useNotice();
  const [shareUrl, setShareUrl] = useState<string | null>(null);
  const path = `/organizations/${orgId}/urls/${urlId}/share`;
  const share = useAction({
    run: () => api<{ shareUrl: string }>('POST', path),
    done: () => t('share.made'),
    notify,
    after: (made) => setShareUrl(made.shareUrl),
  });
  const stop = useAction({
    run: () => api<void>('DELETE', path),
    done: () => t('share.stopped'),
    notify,
    after: () => setShareUrl(null),
  });
  return (
    <Stack gap={4}>
      <Group gap="xs">
        <Button size="compact-xs" variant="subtle" loading={share.isPending} onClick={() => share.mutate()}>
          {shareUrl ? t('share.again') : t('share.make')}
        </Button>
        <Button size="compact-xs" variant="subtle" color="red" loading={stop.isPending} onClick={() => stop.mutate()}>
          {t('share.stop')}
        </Button>
      </Group>
      {shareUrl && (
        <Group gap="xs">
          <Code data-testid="share-url">{shareUrl}</Code>
          <CopyValue value={shareUrl} label={t('share.address')} compact />
          <Text size="xs" c="dimmed">
            {t('share.once')}
          </Text>
        </Group>
      )}
      {noticeBox}
    </Stack>
  );
}
