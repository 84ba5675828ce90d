// Mobile apps of the organization: each with its app id and SDK key to copy (the key regenerated
// on request), the platform's set-up snippets with its values filled in, and the association files
// as this service serves them; and a form to register an iOS or Android app. Changes need apps.write.
import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  Group,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Tabs,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Screen } from '../components/Screen';
import { useNotice } from '../components/Notice';
import { QueryStatus } from '../components/QueryStatus';
import { CopyValue } from '../components/CopyValue';
import { FormCard } from '../components/FormCard';
import { ConfirmButton } from '../components/DeleteButton';
import { useAction } from '../components/use-action';
import { useFields } from '../components/use-fields';
import { useOrgList } from '../components/use-org-list';
import { navigate, pathOfStats } from '../navigation';
import { api, type Membership, type MobileApp, type Page } from '../api';

function Copyable({ label, value }: { label: string; value: string }) {
  return (
    <Group gap="xs" wrap="nowrap">
      <Text size="sm" c="dimmed" w={110}>
        {label}
      </Text>
      <Code style={{ overflowWrap: 'anywhere' }}>{value}</Code>
      <CopyValue value={value} label={label} compact />
    </Group>
  );
}

/** The platform's own set-up: app links for the service's host, and an SDK call with the app's credentials. */
export function setupSnippets(app: MobileApp, origin: string): { label: string; code: string }[] {
  const host = new URL(origin).host;
  const sdkCall = `curl -H 'X-App-ID: ${app.id}' -H 'X-Mobile-App-API-Key: ${app.apiKey}' \\\n  '${origin}/api/v1/sdk/mobile/deeplink/resolve-fingerprint?userAgent=…&ipAddress=…'`;
  if (app.platform === 'IOS') {
    return [
      { label: 'Associated Domains (Xcode → Signing & Capabilities)', code: `applinks:${host}` },
      { label: 'HTTP', code: sdkCall },
    ];
  }
  return [
    {
      label: 'AndroidManifest.xml',
      code: [
        '<intent-filter android:autoVerify="true">',
        '  <action android:name="android.intent.action.VIEW" />',
        '  <category android:name="android.intent.category.DEFAULT" />',
        '  <category android:name="android.intent.category.BROWSABLE" />',
        `  <data android:scheme="https" android:host="${host}" android:pathPrefix="/${app.path}/" />`,
        '</intent-filter>',
      ].join('\n'),
    },
    { label: 'HTTP', code: sdkCall },
  ];
}

const ASSOCIATION_FILE = {
  IOS: '/.well-known/apple-app-site-association',
  ANDROID: '/.well-known/assetlinks.json',
} as const;

/** The association file of the app's platform, fetched from this service as phones fetch it. */
function AssociationFile({ app }: { app: MobileApp }) {
  const { t } = useTranslation();
  const { platform } = app;
  const path = ASSOCIATION_FILE[platform];
  // Without these the file cannot name the app, and links open the browser instead.
  const missing = platform === 'IOS' ? !app.teamId : (app.sha256CertFingerprints ?? []).length === 0;
  const file = useQuery({
    queryKey: ['association', path],
    queryFn: async () => {
      const response = await fetch(path, { headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
      return JSON.stringify(await response.json(), null, 2);
    },
  });
  return (
    <Stack gap={4}>
      <Text size="sm">
        {t('apps.associationFile')} <Code>{path}</Code>
      </Text>
      {missing && (
        <Alert color="yellow" role="note">
          {t(platform === 'IOS' ? 'apps.needsTeamId' : 'apps.needsFingerprint')}
        </Alert>
      )}
      <QueryStatus query={file} />
      {file.data && (
        <Code block mah={220} style={{ overflow: 'auto' }} tabIndex={0} data-testid={`association-${platform}`}>
          {file.data}
        </Code>
      )}
    </Stack>
  );
}

function AppCard({
  app,
  canWrite,
  onRegenerate,
  regenerating,
}: {
  app: MobileApp;
  canWrite: boolean;
  onRegenerate: () => void;
  regenerating: boolean;
}) {
  const { t } = useTranslation();
  const snippets = setupSnippets(app, window.location.origin);
  return (
    <Card withBorder>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">
          {app.appName}
        </Title>
        <Badge variant="light">{app.platform === 'IOS' ? 'iOS' : 'Android'}</Badge>
      </Group>
      <Stack gap={6}>
        <Copyable label={t('apps.appId')} value={String(app.id)} />
        <Copyable label={t('apps.apiKey')} value={app.apiKey} />
        <Copyable label={app.platform === 'IOS' ? t('apps.bundleId') : t('apps.packageName')} value={app.bundleId} />
        <Copyable label={t('apps.path')} value={`/${app.path}/`} />
        {app.scheme && <Copyable label={t('apps.scheme')} value={app.scheme} />}
      </Stack>
      <Group mt="xs">
        <Button
          size="xs"
          variant="light"
          onClick={() => navigate(pathOfStats('app', app.id))}
          aria-label={`${t('apps.stats')}: ${app.appName}`}
        >
          {t('apps.stats')}
        </Button>
        <ConfirmButton
          label={t('apps.regenerate')}
          name={app.appName}
          variant="light"
          disabled={!canWrite}
          loading={regenerating}
          confirm={t('apps.regenerateConfirm', { name: app.appName })}
          onConfirm={onRegenerate}
        />
      </Group>
      <Tabs defaultValue="headers" mt="sm">
        <Tabs.List>
          <Tabs.Tab value="headers">{t('apps.snippet')}</Tabs.Tab>
          <Tabs.Tab value="setup">{t('apps.setup')}</Tabs.Tab>
          <Tabs.Tab value="association">{t('apps.association')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="headers" pt="xs">
          <Code block>{`X-App-ID: ${app.id}\nX-Mobile-App-API-Key: ${app.apiKey}`}</Code>
        </Tabs.Panel>
        <Tabs.Panel value="setup" pt="xs">
          <Stack gap="xs">
            {snippets.map((s) => (
              <Stack gap={4} key={s.label}>
                <Group justify="space-between" wrap="nowrap">
                  <Text size="sm">{s.label}</Text>
                  <CopyValue value={s.code} label={s.label} compact />
                </Group>
                <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
                  {s.code}
                </Code>
              </Stack>
            ))}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="association" pt="xs">
          <AssociationFile app={app} />
        </Tabs.Panel>
      </Tabs>
    </Card>
  );
}

export default function Apps({ membership }: { membership: Membership }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const orgId = membership.organizationId;
  const canWrite = membership.permissions.includes('apps.write');
  const { key, list: apps } = useOrgList<Page<MobileApp>>(orgId, 'apps', 'mobile-apps?size=100');
  const [platform, setPlatform] = useState<'IOS' | 'ANDROID'>('IOS');
  const { form, field, reset } = useFields(
    { appName: '', bundleId: '', scheme: '', teamId: '', storeUrl: '', fingerprints: '' },
    !canWrite,
  );
  const { notify, noticeBox } = useNotice();

  const register = useAction({
    run: () => {
      const optional = Object.fromEntries(
        (['scheme', 'storeUrl', ...(platform === 'IOS' ? (['teamId'] as const) : [])] as const)
          .filter((k) => form[k].trim())
          .map((k) => [k, form[k].trim()]),
      );
      const fingerprints = platform === 'ANDROID' ? form.fingerprints.split(/[\s,]+/).filter(Boolean) : [];
      return api<MobileApp>('POST', `/organizations/${orgId}/mobile-apps`, {
        platform,
        appName: form.appName.trim(),
        bundleId: form.bundleId.trim(),
        ...optional,
        ...(fingerprints.length > 0 ? { sha256CertFingerprints: fingerprints } : {}),
      });
    },
    after: reset,
    done: (app) => t('apps.registered', { name: app.appName }),
    notify,
    invalidates: key,
  });
  const regenerate = useAction({
    run: (id: number) => api<MobileApp>('POST', `/organizations/${orgId}/mobile-apps/${id}/api-key`),
    // The association files carry the key too.
    after: () => void queryClient.invalidateQueries({ queryKey: ['association'] }),
    done: (app) => t('apps.regenerated', { name: app.appName }),
    notify,
    invalidates: key,
  });

  return (
    <Screen heading={t('apps.heading')} notice={noticeBox}>
      <FormCard title={t('apps.register')} readOnly={!canWrite && t('apps.readOnly')} action={register}>
        <Stack gap="sm">
          <SegmentedControl
            aria-label={t('apps.platform')}
            value={platform}
            onChange={(v) => setPlatform(v as 'IOS' | 'ANDROID')}
            data={[
              { value: 'IOS', label: 'iOS' },
              { value: 'ANDROID', label: 'Android' },
            ]}
            disabled={!canWrite}
            w="fit-content"
          />
          <Group align="flex-end" wrap="wrap">
            <TextInput required label={t('apps.name')} maxLength={100} w={220} {...field('appName')} />
            <TextInput
              required
              label={platform === 'IOS' ? t('apps.bundleId') : t('apps.packageName')}
              placeholder="com.example.app"
              w={240}
              {...field('bundleId')}
            />
            <TextInput label={t('apps.scheme')} placeholder="myapp://" w={160} {...field('scheme')} />
            {platform === 'IOS' && (
              <TextInput label={t('apps.teamId')} placeholder="ABCDE12345" w={150} {...field('teamId')} />
            )}
            {platform === 'ANDROID' && (
              <TextInput label={t('apps.fingerprint')} placeholder="AB:CD:…" w={320} {...field('fingerprints')} />
            )}
            <TextInput type="url" label={t('apps.storeUrl')} placeholder="https://" w={280} {...field('storeUrl')} />
            <Button type="submit" disabled={!canWrite} loading={register.isPending}>
              {t('apps.registerButton')}
            </Button>
          </Group>
        </Stack>
      </FormCard>
      <QueryStatus query={apps} />
      {apps.data && apps.data.content.length === 0 && <Text c="dimmed">{t('apps.empty')}</Text>}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {apps.data?.content.map((app) => (
          <AppCard
            key={app.id}
            app={app}
            canWrite={canWrite}
            onRegenerate={() => regenerate.mutate(app.id)}
            regenerating={regenerate.isPending && regenerate.variables === app.id}
          />
        ))}
      </SimpleGrid>
    </Screen>
  );
}
