// The developer menu's Service API keys: names, first characters, access (full, or the scopes
// chosen: everything's reads, or one resource's read or write), expiry, created and last used; a
// new key or a regenerated one is shown this once, with a copy button; delete asks first.
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  Fieldset,
  Group,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
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
import { apiKeyScopeValues as SCOPES } from '../../generated/api-schema';

type Scope = ApiKey['scopes'][number];

/** The resources the scopes are of, in the server's order, each with the uses it has (read, write). */
const RESOURCES = SCOPES.flatMap((scope) => {
  const [resource, use] = scope.split(':');
  return use === 'read' ? [{ resource: resource!, write: SCOPES.includes(`${resource}:write` as Scope) }] : [];
});

/** The scopes ticked, sent in the server's order. */
const chosenScopes = (ticked: ReadonlySet<Scope>): Scope[] => SCOPES.filter((s) => ticked.has(s));

export default function ApiKeys({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const orgId = membership.organizationId;
  const allowed = membership.permissions.includes('keys.manage');
  const { key, list: keys } = useOrgList<ApiKey[]>(orgId, 'api-keys', 'api-keys', { enabled: allowed });
  const [name, setName] = useState('');
  // None ticked: a key with full access.
  const [scopes, setScopes] = useState<ReadonlySet<Scope>>(new Set());
  // A local date and time (datetime-local), sent as an instant.
  const [expires, setExpires] = useState('');
  const [shown, setShown] = useState<string | null>(null);
  const { notify, noticeBox } = useNotice();

  // Success shows the key itself (or the shorter list), not a notice.
  const issue = useAction({
    run: () =>
      api<{ id: number; apiKey: string }>('POST', `/organizations/${orgId}/api-keys`, {
        ...(name.trim() ? { name: name.trim() } : {}),
        ...(scopes.size > 0 ? { scopes: chosenScopes(scopes) } : {}),
        ...(expires ? { expiresAt: new Date(expires).toISOString() } : {}),
      }),
    after: (issued) => {
      setShown(issued.apiKey);
      setName('');
      setScopes(new Set());
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
  const scopeName = (scope: Scope) => {
    if (scope === 'read') return t('keys.readAll');
    const [resource, use] = scope.split(':');
    return t('keys.scopeName', { resource: t(`keys.resource.${resource}`), use: t(`keys.use.${use}`) });
  };
  const tick = (scope: Scope, on: boolean) =>
    setScopes((now) => {
      const next = new Set(now);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });
  const scopeBox = (scope: Scope) => (
    <Checkbox
      aria-label={scopeName(scope)}
      checked={scopes.has(scope)}
      onChange={(e) => tick(scope, e.currentTarget.checked)}
    />
  );
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
          </Group>
          <Fieldset legend={t('keys.scopes')} variant="unstyled" mt="md">
            <Text size="xs" c="dimmed" mb="xs">
              {t('keys.scopesHelp')}
            </Text>
            <Checkbox
              label={t('keys.readAll')}
              description={t('keys.readAllHelp')}
              checked={scopes.has('read')}
              onChange={(e) => tick('read', e.currentTarget.checked)}
              mb="xs"
            />
            <Table withRowBorders={false} verticalSpacing={4} maw={420}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('keys.resourceHeader')}</Table.Th>
                  <Table.Th>{t('keys.use.read')}</Table.Th>
                  <Table.Th>{t('keys.use.write')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {RESOURCES.map(({ resource, write }) => (
                  <Table.Tr key={resource}>
                    <Table.Td>{t(`keys.resource.${resource}`)}</Table.Td>
                    <Table.Td>{scopeBox(`${resource}:read` as Scope)}</Table.Td>
                    <Table.Td>{write ? scopeBox(`${resource}:write` as Scope) : null}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Fieldset>
          <Button type="submit" loading={issue.isPending} mt="md">
            {t('keys.issue')}
          </Button>
        </form>
      </Card>
      <DataTable
        query={keys}
        empty={t('keys.empty')}
        minWidth={640}
        columns={[
          { header: t('keys.name'), cell: (k) => k.name ?? '—' },
          { header: t('keys.prefix'), cell: (k) => <Code>{k.prefix}…</Code> },
          {
            header: t('keys.access'),
            cell: (k) =>
              k.scopes.length > 0 ? (
                <Group gap={4}>
                  {k.scopes.map((scope) => (
                    <Badge key={scope} variant="light" tt="none">
                      {scopeName(scope)}
                    </Badge>
                  ))}
                </Group>
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
