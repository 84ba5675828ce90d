// Mobile apps of the organization: each with its app id and SDK key to copy and a set-up snippet,
// and a form to register an iOS or Android app. Registering needs apps.write.
import { Badge, Button, Card, Code, Group, SegmentedControl, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice, type NoticeState } from '../components/Notice';
import { QueryStatus } from '../components/QueryStatus';
import { CopyValue } from '../components/CopyValue';
import { FormCard } from '../components/FormCard';
import { api, type Membership, type MobileApp, type Page } from '../api';

function Copyable({ label, value }: { label: string; value: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed" w={110}>{label}</Text>
      <Code style={{ overflowWrap: 'anywhere' }}>{value}</Code>
      <CopyValue value={value} label={label} compact />
    </Group>
  );
}

export default function Apps({ membership }: { membership: Membership }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const orgId = membership.organizationId;
  const canWrite = membership.permissions.includes('apps.write');
  const key = ['org', orgId, 'apps'];
  const apps = useQuery({ queryKey: key, queryFn: () => api<Page<MobileApp>>('GET', `/organizations/${orgId}/mobile-apps?size=100`) });
  const [platform, setPlatform] = useState<'IOS' | 'ANDROID'>('IOS');
  const [form, setForm] = useState({ appName: '', bundleId: '', scheme: '', teamId: '', storeUrl: '' });
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const field = (name: keyof typeof form) => ({
    value: form[name],
    onChange: (e: { currentTarget: { value: string } }) => setForm({ ...form, [name]: e.currentTarget.value }),
    disabled: !canWrite,
  });

  const register = useMutation({
    mutationFn: () => {
      const optional = Object.fromEntries(
        (['scheme', 'storeUrl', ...(platform === 'IOS' ? (['teamId'] as const) : [])] as const).filter((k) => form[k].trim()).map((k) => [k, form[k].trim()]),
      );
      return api<MobileApp>('POST', `/organizations/${orgId}/mobile-apps`, { platform, appName: form.appName.trim(), bundleId: form.bundleId.trim(), ...optional });
    },
    onSuccess: (app) => {
      setForm({ appName: '', bundleId: '', scheme: '', teamId: '', storeUrl: '' });
      setNotice({ ok: true, text: t('apps.registered', { name: app.appName }) });
      void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error: Error) => setNotice({ ok: false, text: error.message }),
  });

  return (
    <Stack>
      <Title order={2}>{t('apps.heading')}</Title>
      <Notice notice={notice} onClose={() => setNotice(null)} />
      <FormCard title={t('apps.register')} readOnly={!canWrite && t('apps.readOnly')} onSubmit={() => register.mutate()}>
          <Stack gap="sm">
            <SegmentedControl
              aria-label={t('apps.platform')}
              value={platform}
              onChange={(v) => setPlatform(v as 'IOS' | 'ANDROID')}
              data={[{ value: 'IOS', label: 'iOS' }, { value: 'ANDROID', label: 'Android' }]}
              disabled={!canWrite}
              w="fit-content"
            />
            <Group align="flex-end" wrap="wrap">
              <TextInput required label={t('apps.name')} maxLength={100} w={220} {...field('appName')} />
              <TextInput required label={platform === 'IOS' ? t('apps.bundleId') : t('apps.packageName')} placeholder="com.example.app" w={240} {...field('bundleId')} />
              <TextInput label={t('apps.scheme')} placeholder="myapp://" w={160} {...field('scheme')} />
              {platform === 'IOS' && <TextInput label={t('apps.teamId')} placeholder="ABCDE12345" w={150} {...field('teamId')} />}
              <TextInput type="url" label={t('apps.storeUrl')} placeholder="https://" w={280} {...field('storeUrl')} />
              <Button type="submit" disabled={!canWrite} loading={register.isPending}>{t('apps.registerButton')}</Button>
            </Group>
          </Stack>
      </FormCard>
      <QueryStatus query={apps} />
      {apps.data && apps.data.content.length === 0 && <Text c="dimmed">{t('apps.empty')}</Text>}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {apps.data?.content.map((app) => (
          <Card withBorder key={app.id}>
            <Group justify="space-between" mb="xs">
              <Title order={3} size="h5">{app.appName}</Title>
              <Badge variant="light">{app.platform === 'IOS' ? 'iOS' : 'Android'}</Badge>
            </Group>
            <Stack gap={6}>
              <Copyable label={t('apps.appId')} value={String(app.id)} />
              <Copyable label={t('apps.apiKey')} value={app.apiKey} />
              <Copyable label={app.platform === 'IOS' ? t('apps.bundleId') : t('apps.packageName')} value={app.bundleId} />
              <Copyable label={t('apps.path')} value={`/${app.path}/`} />
              {app.scheme && <Copyable label={t('apps.scheme')} value={app.scheme} />}
            </Stack>
            <Text size="sm" mt="sm" mb={4}>{t('apps.snippet')}</Text>
            <Code block>{`X-App-ID: ${app.id}\nX-Mobile-App-API-Key: ${app.apiKey}`}</Code>
          </Card>
        ))}
      </SimpleGrid>
    </Stack>
  );
}
