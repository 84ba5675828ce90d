// The developer menu's Service API keys: names, first characters, access (full or read only),
// expiry, created and last used; a new key or a regenerated one is shown this once, with a copy
// button; delete asks first.
import { Alert, Badge, Button, Card, Checkbox, Code, Group, Text, Textarea, TextInput, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../components/DataTable';
import { ConfirmButton } from '../components/DeleteButton';
import { useOrgList } from '../components/use-org-list';
import { Screen } from '../components/Screen';
import { useNotice } from '../components/Notice';
import { useAction } from '../components/use-action';
import { CopyValue } from '../components/CopyValue';
import { type ApiKey, api, type Membership } from '../api';
import { NotAllowed } from '../components/NotAllowed';

export default function ApiKeys({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const orgId = membership.organizationId;
  const allowed = membership.permissions.includes('keys.manage');
  const { key, list: keys } = useOrgList<ApiKey[]>(orgId, 'api-keys', 'api-keys', { enabled: allowed });
  const [name, setName] = useState('');
  const [readOnly, setReadOnly] = useState(false);
  // A local date and time (datetime-local), sent as an instant.
  const [expires, setExpires] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const { notify, noticeBox } = useNotice();

  // Success shows the key itself (or the shorter list), not a notice.
  const issue = useAction({
    run: () =>
      api<{ id: number; apiKey: string }>('POST', `/organizations/${orgId}/api-keys`, {
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(readOnly ? { scopes: ['read'] } : {}),
        ...(expires ? { expiresAt: new Date(expires).toISOString() } : {}),
      }),
    after: (issued) => {
      setShown(issued.apiKey);
      setName('');
      setReadOnly(false);
      setExpires('');
    },
    done: () => null,
    notify,
    invalidates: key,
  });
  const regenerate = useAction({
    run: (id: number) =>
      api<{ id: number; apiKey: string }>('POST', `/organizations/${orgId}/api-keys/${id}/regenerate`),
    after: (issued) => setShown(issued.apiKey),
    done: () => null,
    notify,
    invalidates: key,
  });
  const allowlist = useQuery({
    queryKey: ['org', orgId, 'ip-allowlist'],
    queryFn: () => api<{ ips: string[] }>('GET', `/organizations/${orgId}/ip-allowlist`),
    enabled: allowed,
  });
  const [ips, setIps] = useState('');
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (allowlist.data) setIps(allowlist.data.ips.join('\n'));
  }, [allowlist.data]);
  const saveIps = useAction({
    run: () =>
      api<{ ips: string[] }>('PUT', `/organizations/${orgId}/ip-allowlist`, {
        ips: ips.split(/[\s,]+/).filter(Boolean),
      }),
    after: (answer) => {
      // The answer is the stored list: kept as the query's data rather than fetched again, since a
      // refetch landing later would overwrite what the user typed after saving.
      queryClient.setQueryData(['org', orgId, 'ip-allowlist'], answer);
      setIps(answer.ips.join('\n'));
      setSaved(true);
    },
    done: () => null,
    notify,
  });
  const remove = useAction({
    run: (id: number) => api('DELETE', `/organizations/${orgId}/api-keys/${id}`),
    done: () => null,
    notify,
    invalidates: key,
  });

  if (!allowed) return <NotAllowed heading={t('keys.heading')} message={t('keys.forbidden')} />;
  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : t('keys.never'));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    issue.mutate();
  };

  return (
    <Screen heading={t('keys.heading')}>
      {/* This intro spans the screen's whole width (Screen's own stops at 720px), so it is a child here. */}
      <Text c="dimmed">{t('keys.intro')}</Text>
      {noticeBox}
      {shown && (
        <Alert
          color="blue"
          role="status"
          title={t('keys.shownOnce')}
          withCloseButton
          closeButtonLabel={t('close')}
          onClose={() => setShown(null)}
        >
          <Group wrap="nowrap" gap="xs">
            <Code data-testid="new-api-key" style={{ overflowWrap: 'anywhere' }}>
              {shown}
            </Code>
            <CopyValue value={shown} filled />
          </Group>
        </Alert>
      )}
      <Card withBorder>
        <form onSubmit={submit}>
          <Group align="flex-end" wrap="wrap">
            <TextInput
              label={t('keys.name')}
              value={name}
              onChange={(e) => setName(e.currentTarget.value)}
              maxLength={100}
              w={260}
            />
            <TextInput
              type="datetime-local"
              label={t('keys.expires')}
              description={t('keys.expiresHelp')}
              value={expires}
              onChange={(e) => setExpires(e.currentTarget.value)}
              w={240}
            />
            <Checkbox
              label={t('keys.readOnly')}
              description={t('keys.readOnlyHelp')}
              checked={readOnly}
              onChange={(e) => setReadOnly(e.currentTarget.checked)}
              maw={320}
            />
            <Button type="submit" loading={issue.isPending}>
              {t('keys.issue')}
            </Button>
          </Group>
        </form>
      </Card>
      <DataTable
        query={keys}
        rows={keys.data}
        rowKey={(k) => k.id}
        empty={t('keys.empty')}
        minWidth={640}
        columns={[
          { header: t('keys.name'), cell: (k) => k.name ?? '—' },
          { header: t('keys.prefix'), cell: (k) => <Code>{k.prefix}…</Code> },
          {
            header: t('keys.access'),
            cell: (k) =>
              k.scopes.includes('read') ? (
                <Badge variant="light">{t('keys.readOnly')}</Badge>
              ) : (
                <Text size="sm">{t('keys.fullAccess')}</Text>
              ),
          },
          {
            header: t('keys.expires'),
            cell: (k) =>
              !k.expiresAt ? (
                t('keys.noExpiry')
              ) : new Date(k.expiresAt).getTime() <= Date.now() ? (
                <Badge color="red" variant="light">
                  {t('keys.expired')} · {date(k.expiresAt)}
                </Badge>
              ) : (
                date(k.expiresAt)
              ),
          },
          { header: t('links.createdAt'), cell: (k) => date(k.createdAt) },
          { header: t('keys.lastUsed'), cell: (k) => date(k.lastUsedAt) },
          {
            cell: (k) => (
              <Group gap={4} wrap="nowrap">
                <ConfirmButton
                  label={t('keys.regenerate')}
                  variant="light"
                  red={false}
                  confirm={t('keys.regenerateConfirm')}
                  onConfirm={() => regenerate.mutate(k.id)}
                />
                <ConfirmButton
                  label={t('links.delete')}
                  confirm={t('keys.deleteConfirm')}
                  onConfirm={() => remove.mutate(k.id)}
                />
              </Group>
            ),
          },
        ]}
      />
      <Card withBorder>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            setSaved(false);
            saveIps.mutate();
          }}
        >
          <Title order={3} size="h5" mb={4}>
            {t('keys.allowlist')}
          </Title>
          <Text size="sm" c="dimmed" mb="xs">
            {t('keys.allowlistHelp')}
          </Text>
          <Textarea
            label={t('keys.allowlistLabel')}
            value={ips}
            onChange={(e) => {
              setIps(e.currentTarget.value);
              setSaved(false);
            }}
            autosize
            minRows={3}
            maxRows={12}
            w={360}
            placeholder={'203.0.113.10\n198.51.100.0/24'}
          />
          <Group mt="sm">
            <Button type="submit" loading={saveIps.isPending}>
              {t('keys.allowlistSave')}
            </Button>
            {saved && (
              <Text size="sm" role="status">
                {t('keys.allowlistSaved')}
              </Text>
            )}
          </Group>
        </form>
      </Card>
    </Screen>
  );
}
