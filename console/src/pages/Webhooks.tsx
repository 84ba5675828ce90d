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
  SegmentedControl,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { CopyValue } from '../components/CopyValue';
import { DataTable } from '../components/DataTable';
import { ConfirmButton, RowButton } from '../components/DeleteButton';
import { useAction } from '../components/use-action';
import { FormCard } from '../components/FormCard';
import { Screen } from '../components/Screen';
import { useNotice } from '../components/Notice';
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
          <DataTable
            rows={d.attemptLog}
            rowKey={(a) => a.attempt}
            empty={t('webhooks.noAttempts')}
            minWidth={560}
            plain="striped"
            columns={[
              { header: '#', cell: (a) => a.attempt },
              { header: t('webhooks.when'), cell: (a) => new Date(a.startedAt).toLocaleString(i18n.language) },
              {
                header: t('webhooks.response'),
                cell: (a) => (
                  <>
                    {a.status ?? a.error ?? '—'}
                    {a.responseBody ? (
                      <Text size="xs" c="dimmed" lineClamp={2}>
                        {a.responseBody}
                      </Text>
                    ) : null}
                  </>
                ),
              },
              { header: t('webhooks.latency'), align: 'right', cell: (a) => `${a.latencyMs} ms` },
            ]}
          />
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
  const { notify, noticeBox } = useNotice();
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
  const action = { notify, invalidates: ['org', orgId, 'webhook-deliveries'] };
  const keepEndpoint = (answer: { endpoint: WebhookEndpoint; secret: string | null }) => {
    queryClient.setQueryData(endpointKey, { endpoint: answer.endpoint });
    if (answer.secret) setSecret(answer.secret);
  };

  const save = useAction({
    run: () =>
      api<{ endpoint: WebhookEndpoint; secret: string | null }>('PUT', `/organizations/${orgId}/webhook`, {
        url: url.trim(),
        events,
        enabled,
      }),
    after: keepEndpoint,
    done: () => t('webhooks.saved'),
    notify,
  });
  const rotate = useAction({
    run: () => api<{ endpoint: WebhookEndpoint; secret: string }>('POST', `/organizations/${orgId}/webhook/secret`),
    after: keepEndpoint,
    done: () => t('webhooks.rotated'),
    notify,
  });
  const test = useAction({
    run: () => api<{ deliveryId: number }>('POST', `/organizations/${orgId}/webhook/test`),
    done: (answer) => t('webhooks.testSent', { id: answer.deliveryId }),
    ...action,
  });
  const redeliver = useAction({
    run: (id: number) => api<WebhookDelivery>('POST', `/organizations/${orgId}/webhook/deliveries/${id}/redeliver`),
    done: (d) => t('webhooks.redelivering', { id: d.id }),
    ...action,
  });

  if (!allowed) return <NotAllowed heading={t('webhooks.heading')} message={t('webhooks.forbidden')} />;
  const errors = fieldErrors(save.error);
  const data = deliveries.data;

  return (
    <Screen heading={t('webhooks.heading')} intro={t('webhooks.intro')} notice={noticeBox}>
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
        <FormCard title={t(current ? 'webhooks.endpoint' : 'webhooks.setUp')} action={save}>
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
                  <ConfirmButton
                    size="sm"
                    label={t('webhooks.rotate')}
                    confirm={t('webhooks.rotateConfirm')}
                    onConfirm={() => rotate.mutate()}
                    loading={rotate.isPending}
                  />
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
          <DataTable
            query={deliveries}
            rows={data?.content}
            rowKey={(d) => d.id}
            empty={t('webhooks.noDeliveries')}
            testId="deliveries"
            paging={data && { page, totalPages: data.totalPages, onChange: setPage, label: t('links.pages') }}
            columns={[
              { header: t('webhooks.when'), cell: (d) => new Date(d.createdAt).toLocaleString(i18n.language) },
              { header: t('webhooks.event'), cell: (d) => <Code>{d.eventType}</Code> },
              {
                header: t('webhooks.stateLabel'),
                cell: (d) => (
                  <Badge variant="light" color={STATE_COLOUR[d.state]}>
                    {t(`webhooks.state.${d.state}`)}
                  </Badge>
                ),
              },
              { header: t('webhooks.attempts'), align: 'right', cell: (d) => d.attempts },
              { header: t('webhooks.response'), cell: (d) => d.lastStatus ?? d.lastError ?? '—' },
              {
                header: t('webhooks.latency'),
                align: 'right',
                cell: (d) => (d.lastLatencyMs === null ? '—' : `${d.lastLatencyMs} ms`),
              },
              {
                cell: (d) => (
                  <Group gap={4} wrap="nowrap">
                    <RowButton label={t('webhooks.details')} name={`#${d.id}`} onClick={() => setOpened(d.id)} />
                    <RowButton
                      label={t('webhooks.redeliver')}
                      name={`#${d.id}`}
                      onClick={() => redeliver.mutate(d.id)}
                      loading={redeliver.isPending && redeliver.variables === d.id}
                    />
                  </Group>
                ),
              },
            ]}
          />
        </Stack>
      )}
      {opened !== null && <DeliveryDetail orgId={orgId} id={opened} onClose={() => setOpened(null)} />}
    </Screen>
  );
}
