// Reports by mail: the signed-in member subscribes to a weekly or monthly report of the
// organization, one of its tags or one of its links (short URL or campaign), mailed in their
// language with the period's totals and change, busiest links, countries, devices and a chart; the
// list shows their subscriptions with the last mailing, each cancellable. Weeks and months begin
// in the browser's time zone. Needs statistics.read, as the dashboards do.
import { Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  api,
  type Campaign,
  fieldErrors,
  type Membership,
  type Page,
  type ReportSubscription,
  type ShortUrl,
} from '../api';
import { DataTable } from '../components/DataTable';
import { ConfirmButton } from '../components/DeleteButton';
import { FormCard } from '../components/FormCard';
import { NotAllowed } from '../components/NotAllowed';
import { useNotice } from '../components/Notice';
import { Screen } from '../components/Screen';
import { useTags } from '../components/tags';
import { useAction } from '../components/use-action';
import { useOrgList } from '../components/use-org-list';

type ScopeType = ReportSubscription['scope']['type'];
const SCOPES: ScopeType[] = ['organization', 'tag', 'url', 'campaign'];
/** The links offered: the most recent of each kind (a report of an older link starts from its statistics page). */
const LINKS_OFFERED = 100;

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

export default function Reports({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const orgId = membership.organizationId;
  const allowed = membership.permissions.includes('statistics.read');
  const { key, list } = useOrgList<{ items: ReportSubscription[] }>(
    orgId,
    'report-subscriptions',
    'report-subscriptions',
    {
      enabled: allowed,
    },
  );
  const { notify, noticeBox } = useNotice();
  const [frequency, setFrequency] = useState<'weekly' | 'monthly'>('weekly');
  const [scope, setScope] = useState<ScopeType>('organization');
  const [target, setTarget] = useState<string | null>(null);
  const timeZone = browserZone();

  const { list: tags } = useTags(orgId);
  const urls = useQuery({
    queryKey: ['org', orgId, 'urls', 'report-choice'],
    queryFn: () => api<Page<ShortUrl>>('GET', `/organizations/${orgId}/urls?page=0&size=${LINKS_OFFERED}`),
    enabled: allowed && scope === 'url',
  });
  const campaigns = useQuery({
    queryKey: ['org', orgId, 'campaigns', 'report-choice'],
    queryFn: () => api<Page<Campaign>>('GET', `/organizations/${orgId}/campaigns?page=0&size=${LINKS_OFFERED}`),
    enabled: allowed && scope === 'campaign',
  });
  const choices =
    scope === 'tag'
      ? (tags.data?.items ?? []).map((tag) => ({ value: String(tag.id), label: tag.name }))
      : scope === 'url'
        ? (urls.data?.content ?? []).map((u) => ({
            value: String(u.id),
            label: u.title ? `${u.title} (${u.shortCode})` : u.shortCode,
          }))
        : scope === 'campaign'
          ? (campaigns.data?.content ?? []).map((c) => ({ value: String(c.id), label: c.name }))
          : [];
  const choicesLoading =
    (scope === 'tag' && tags.isPending) ||
    (scope === 'url' && urls.isPending) ||
    (scope === 'campaign' && campaigns.isPending);

  const subscribe = useAction({
    run: () =>
      api<ReportSubscription>('POST', `/organizations/${orgId}/report-subscriptions`, {
        frequency,
        scope: scope === 'organization' ? { type: scope } : { type: scope, id: Number(target) },
        timeZone,
      }),
    after: () => setTarget(null),
    done: (s) => t('reports.subscribed', { what: t(`reports.frequency.${s.frequency}`), name: s.scope.name }),
    notify,
    invalidates: key,
  });
  const cancel = useAction({
    run: (s: ReportSubscription) => api('DELETE', `/organizations/${orgId}/report-subscriptions/${s.id}`),
    done: (_, s) => t('reports.cancelled', { name: s.scope.name }),
    notify,
    invalidates: key,
  });
  const errors = fieldErrors(subscribe.error);

  if (!allowed) return <NotAllowed heading={t('reports.heading')} message={t('reports.notAllowed')} />;
  const describe = (s: ReportSubscription) =>
    s.scope.type === 'organization'
      ? t('reports.scope.organization')
      : `${t(`reports.scope.${s.scope.type}`)}: ${s.scope.name}`;

  return (
    <Screen heading={t('reports.heading')} intro={t('reports.intro')} notice={noticeBox}>
      <FormCard
        title={t('reports.subscribe')}
        action={subscribe}
        submit={{
          label: t('reports.subscribeButton'),
          disabled: scope !== 'organization' && !target,
          errorsBelow: true,
        }}
      >
        <Select
          label={t('reports.frequencyLabel')}
          w={160}
          allowDeselect={false}
          data={(['weekly', 'monthly'] as const).map((f) => ({ value: f, label: t(`reports.frequency.${f}`) }))}
          value={frequency}
          onChange={(v) => v && setFrequency(v as 'weekly' | 'monthly')}
        />
        <Select
          label={t('reports.scopeLabel')}
          w={200}
          allowDeselect={false}
          data={SCOPES.map((s) => ({ value: s, label: t(`reports.scope.${s}`) }))}
          value={scope}
          onChange={(v) => {
            if (!v) return;
            setScope(v as ScopeType);
            setTarget(null);
          }}
        />
        {scope !== 'organization' && (
          <Select
            label={t(`reports.scope.${scope}`)}
            placeholder={choicesLoading ? t('loading') : t('reports.choose')}
            nothingFoundMessage={t('reports.nothingToChoose')}
            searchable
            required
            w={280}
            data={choices}
            value={target}
            onChange={setTarget}
            error={errors['scope.id'] ?? errors.scope}
          />
        )}
      </FormCard>
      <Text size="sm" c="dimmed">
        {t('reports.zoneNote', { zone: timeZone })}
      </Text>
      <DataTable
        query={list}
        rows={list.data?.items}
        rowKey={(s) => s.id}
        empty={t('reports.empty')}
        minWidth={560}
        columns={[
          { header: t('reports.frequencyLabel'), cell: (s) => t(`reports.frequency.${s.frequency}`) },
          { header: t('reports.scopeLabel'), cell: describe },
          { header: t('reports.timeZone'), cell: (s) => s.timeZone },
          {
            header: t('reports.lastSent'),
            cell: (s) => (s.lastSentAt ? new Date(s.lastSentAt).toLocaleString(i18n.language) : t('reports.notYet')),
          },
          {
            cell: (s) => (
              <ConfirmButton
                label={t('reports.cancel')}
                name={describe(s)}
                confirm={t('reports.cancelConfirm', { name: describe(s) })}
                onConfirm={() => cancel.mutate(s)}
              />
            ),
          },
        ]}
      />
    </Screen>
  );
}
