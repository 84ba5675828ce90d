// Webhooks: the endpoint (URL, event categories, on or off), its signing secret made by the server
// and shown once (rotated with a day's overlap), a test event, and the delivery log with each
// attempt's status, response code and time, and redelivery. Everything needs webhooks.manage; a
// role without it sees why. The log refreshes by itself while deliveries are pending.
import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Code,
  Group,
  Modal,
  Pagination,
  SegmentedControl,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyValue } from '../components/CopyValue';
import { FormCard } from '../components/FormCard';
import { Notice, type NoticeState } from '../components/Notice';
import { QueryStatus } from '../components/QueryStatus';
import {
  api,
  fieldErrors,
  type Membership,
  type Page,
  WEBHOOK_CATEGORIES,
  type WebhookCategory,
  type WebhookDelivery,
  type WebhookDeliveryDetail,
  type WebhookEndpoint,
} from '../api';
import { NotAllowed } from '../components/NotAllowed';

const SIZE = 20;
type StateFilter = 'all' | WebhookDelivery['state'];
const STATE_COLOUR = { pending: 'yellow', succeeded: 'green', failed: 'red' } as const;

function DeliveryDetail({ orgId, id, onClose }: { orgId: number; id: number; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const detail = useQuery({
    queryKey: ['org', orgId, 'webhook-delivery', id],
    queryFn: () => api<WebhookDeliveryDetail>('GET', `/organizations/${orgId}/webhook/deliveries/${id}`),
  });
  const d = detail.data;
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={t('webhooks.detailTitle', { id })}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <QueryStatus query={detail} />
      {d && (
        <Stack>
          <Group gap="xs">
            <Badge variant="light" color={STATE_COLOUR[d.state]}>
              {t(`webhooks.state.${d.state}`)}
            </Badge>
            <Code>{d.eventType}</Code>
            <Text size="sm" c="dimmed">
              {d.eventId}
            </Text>
          </Group>
          <Table.ScrollContainer minWidth={560}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>#</Table.Th>
                  <Table.Th>{t('webhooks.when')}</Table.Th>
                  <Table.Th>{t('webhooks.response')}</Table.Th>
                  <Table.Th ta="right">{t('webhooks.latency')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {d.attemptLog.map((a) => (
                  <Table.Tr key={a.attempt}>
                    <Table.Td>{a.attempt}</Table.Td>
                    <Table.Td>{new Date(a.startedAt).toLocaleString(i18n.language)}</Table.Td>
                    <Table.Td>
                      {a.status ?? a.error ?? '—'}
                      {a.responseBody ? (
                        <Text size="xs" c="dimmed" lineClamp={2}>
                          {a.responseBody}
                        </Text>
                      ) : null}
                    </Table.Td>
                    <Table.Td ta="right">{a.latencyMs} ms</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {d.attemptLog.length === 0 && <Text c="dimmed">{t('webhooks.noAttempts')}</Text>}
          <Text size="sm">{t('webhooks.payload')}</Text>
          <Code block mah={260} style={{ overflow: 'auto' }} tabIndex={0}>
            {JSON.stringify(d.payload, null, 2)}
          </Code>
        </Stack>
      )}
    </Modal>
  );
}

export default function Webhooks({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const orgId = membership.organizationId;
  const allowed = membership.permissions.includes('webhooks.manage');
  const endpointKey = ['org', orgId, 'webhook'];
  const endpoint = useQuery({
    queryKey: endpointKey,
    queryFn: () => api<{ endpoint: WebhookEndpoint | null }>('GET', `/organizations/${orgId}/webhook`),
    enabled: allowed,
  });
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<WebhookCategory[]>([...WEBHOOK_CATEGORIES]);
  const [enabled, setEnabled] = useState(true);
  const [secret, setSecret] = useState<string | null>(null);
  const [notice, setNotice] = useState<NoticeState | null>(null);
  const [state, setState] = useState<StateFilter>('all');
  const [page, setPage] = useState(0);
  const [opened, setOpened] = useState<number | null>(null);
  const current = endpoint.data?.endpoint ?? null;

  // The form starts from what is saved.
  useEffect(() => {
    if (!current) return;
    setUrl(current.url);
    setEvents(current.events);
    setEnabled(current.enabled);
  }, [current]);

  const deliveriesKey = ['org', orgId, 'webhook-deliveries', state, page];
  const deliveries = useQuery({
    queryKey: deliveriesKey,
    enabled: allowed && current !== null,
    queryFn: () =>
      api<Page<WebhookDelivery>>(
        'GET',
        `/organizations/${orgId}/webhook/deliveries?page=${page}&size=${SIZE}${state === 'all' ? '' : `&state=${state}`}`,
      ),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.content.some((d) => d.state === 'pending') ? 2_000 : 15_000),
  });
  const refreshLog = () => queryClient.invalidateQueries({ queryKey: ['org', orgId, 'webhook-deliveries'] });
  const failed = (error: Error) => setNotice({ ok: false, text: error.message });

  const save = useMutation({
    mutationFn: () =>
      api<{ endpoint: WebhookEndpoint; secret: string | null }>('PUT', `/organizations/${orgId}/webhook`, {
        url: url.trim(),
        events,
        enabled,
      }),
    onSuccess: (answer) => {
      queryClient.setQueryData(endpointKey, { endpoint: answer.endpoint });
      if (answer.secret) setSecret(answer.secret);
      setNotice({ ok: true, text: t('webhooks.saved') });
    },
    onError: failed,
  });
  const rotate = useMutation({
    mutationFn: () =>
      api<{ endpoint: WebhookEndpoint; secret: string }>('POST', `/organizations/${orgId}/webhook/secret`),
    onSuccess: (answer) => {
      queryClient.setQueryData(endpointKey, { endpoint: answer.endpoint });
      setSecret(answer.secret);
      setNotice({ ok: true, text: t('webhooks.rotated') });
    },
    onError: failed,
  });
  const test = useMutation({
    mutationFn: () => api<{ deliveryId: number }>('POST', `/organizations/${orgId}/webhook/test`),
    onSuccess: (answer) => {
      setNotice({ ok: true, text: t('webhooks.testSent', { id: answer.deliveryId }) });
      void refreshLog();
    },
    onError: failed,
  });
  const redeliver = useMutation({
    mutationFn: (id: number) =>
      api<WebhookDelivery>('POST', `/organizations/${orgId}/webhook/deliveries/${id}/redeliver`),
    onSuccess: (d) => {
      setNotice({ ok: true, text: t('webhooks.redelivering', { id: d.id }) });
      void refreshLog();
    },
    onError: failed,
  });

  if (!allowed) return <NotAllowed heading={t('webhooks.heading')} message={t('webhooks.forbidden')} />;
  const errors = fieldErrors(save.error);
  const data = deliveries.data;

  return (
    <Stack>
      <Title order={2}>{t('webhooks.heading')}</Title>
      <Text c="dimmed" maw={720}>
        {t('webhooks.intro')}
      </Text>
      <Notice notice={notice} onClose={() => setNotice(null)} />
      {secret && (
        <Alert
          color="blue"
          title={t('webhooks.secretTitle')}
          role="status"
          withCloseButton
          closeButtonLabel={t('webhooks.hideSecret')}
          onClose={() => setSecret(null)}
        >
          <Text size="sm" mb="xs">
            {t('webhooks.secretOnce')}
          </Text>
          <Group gap="xs" wrap="nowrap">
            <Code data-testid="webhook-secret" style={{ overflowWrap: 'anywhere' }}>
              {secret}
            </Code>
            <CopyValue value={secret} label={t('webhooks.secretTitle')} filled />
          </Group>
        </Alert>
      )}
      <QueryStatus query={endpoint} />
      {endpoint.data && (
        <FormCard title={t(current ? 'webhooks.endpoint' : 'webhooks.setUp')} onSubmit={() => save.mutate()}>
          <Stack gap="sm">
            {!current && (
              <Text size="sm" c="dimmed">
                {t('webhooks.none')}
              </Text>
            )}
            {current && (
              <Group gap="xs">
                <Badge variant="light" color={current.enabled ? 'green' : 'gray'}>
                  {t(current.enabled ? 'webhooks.on' : 'webhooks.off')}
                </Badge>
                {current.consecutiveFailures > 0 && (
                  <Badge variant="light" color="red">
                    {t('webhooks.failing', { count: current.consecutiveFailures })}
                  </Badge>
                )}
                {current.disabledReason && (
                  <Text size="sm" c="dimmed">
                    {current.disabledReason}
                  </Text>
                )}
                {current.secretRotation && current.previousSecretValidUntil && (
                  <Text size="sm" c="dimmed">
                    {t('webhooks.rotation', {
                      until: new Date(current.previousSecretValidUntil).toLocaleString(i18n.language),
                    })}
                  </Text>
                )}
              </Group>
            )}
            <TextInput
              type="url"
              required
              label={t('webhooks.url')}
              placeholder="https://example.com/hooks/signpost"
              value={url}
              onChange={(e) => setUrl(e.currentTarget.value)}
              maxLength={2000}
              error={errors.url}
            />
            <Checkbox.Group
              label={t('webhooks.events')}
              value={events}
              onChange={(v) => setEvents(v as WebhookCategory[])}
              error={errors.events}
            >
              <Group mt={4}>
                {WEBHOOK_CATEGORIES.map((c) => (
                  <Checkbox key={c} value={c} label={t(`webhooks.category.${c}`)} />
                ))}
              </Group>
            </Checkbox.Group>
            <Switch
              label={t('webhooks.enabled')}
              checked={enabled}
              onChange={(e) => setEnabled(e.currentTarget.checked)}
            />
            <Group>
              <Button type="submit" loading={save.isPending} disabled={events.length === 0}>
                {t('webhooks.save')}
              </Button>
              {current && (
                <>
                  <Button
                    variant="default"
                    onClick={() => test.mutate()}
                    loading={test.isPending}
                    disabled={!current.enabled}
                  >
                    {t('webhooks.test')}
                  </Button>
                  <Button
                    variant="subtle"
                    color="red"
                    onClick={() => window.confirm(t('webhooks.rotateConfirm')) && rotate.mutate()}
                    loading={rotate.isPending}
                  >
                    {t('webhooks.rotate')}
                  </Button>
                </>
              )}
            </Group>
          </Stack>
        </FormCard>
      )}

      {current && (
        <Stack gap="sm">
          <Group justify="space-between" align="flex-end">
            <Title order={3} size="h4">
              {t('webhooks.log')}
            </Title>
            <SegmentedControl
              aria-label={t('webhooks.stateFilter')}
              value={state}
              onChange={(v) => {
                setState(v as StateFilter);
                setPage(0);
              }}
              data={(['all', 'pending', 'succeeded', 'failed'] as const).map((s) => ({
                value: s,
                label: t(`webhooks.state.${s}`),
              }))}
            />
          </Group>
          <QueryStatus query={deliveries} />
          {data && data.totalElements === 0 && <Text c="dimmed">{t('webhooks.noDeliveries')}</Text>}
          {data && data.content.length > 0 && (
            <Table.ScrollContainer minWidth={720}>
              <Table striped highlightOnHover data-testid="deliveries">
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('webhooks.when')}</Table.Th>
                    <Table.Th>{t('webhooks.event')}</Table.Th>
                    <Table.Th>{t('webhooks.stateLabel')}</Table.Th>
                    <Table.Th ta="right">{t('webhooks.attempts')}</Table.Th>
                    <Table.Th>{t('webhooks.response')}</Table.Th>
                    <Table.Th ta="right">{t('webhooks.latency')}</Table.Th>
                    <Table.Th />
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.content.map((d) => (
                    <Table.Tr key={d.id}>
                      <Table.Td>{new Date(d.createdAt).toLocaleString(i18n.language)}</Table.Td>
                      <Table.Td>
                        <Code>{d.eventType}</Code>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={STATE_COLOUR[d.state]}>
                          {t(`webhooks.state.${d.state}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td ta="right">{d.attempts}</Table.Td>
                      <Table.Td>{d.lastStatus ?? d.lastError ?? '—'}</Table.Td>
                      <Table.Td ta="right">{d.lastLatencyMs === null ? '—' : `${d.lastLatencyMs} ms`}</Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Button
                            size="xs"
                            variant="subtle"
                            onClick={() => setOpened(d.id)}
                            aria-label={`${t('webhooks.details')}: #${d.id}`}
                          >
                            {t('webhooks.details')}
                          </Button>
                          <Button
                            size="xs"
                            variant="subtle"
                            onClick={() => redeliver.mutate(d.id)}
                            loading={redeliver.isPending && redeliver.variables === d.id}
                            aria-label={`${t('webhooks.redeliver')}: #${d.id}`}
                          >
                            {t('webhooks.redeliver')}
                          </Button>
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
          {data && data.totalPages > 1 && (
            <Pagination
              total={data.totalPages}
              value={page + 1}
              onChange={(p) => setPage(p - 1)}
              aria-label={t('links.pages')}
            />
          )}
        </Stack>
      )}
      {opened !== null && <DeliveryDetail orgId={orgId} id={opened} onClose={() => setOpened(null)} />}
    </Stack>
  );
}
