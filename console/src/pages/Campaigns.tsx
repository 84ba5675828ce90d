// Campaigns: named tracked links with an alias. Search, a tag filter, the archived ones, pages,
// tags, clicks and expiry; export as CSV; create one
// quickly or with every field in the editor, edit and delete it; and for each a link builder that
// adds the user tracking id (cid) and a tracker, ready to copy.
import { Anchor, Card, Code, Group, Stack, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../components/DataTable';
import { DeleteButton, RowButton } from '../components/DeleteButton';
import { useAction } from '../components/use-action';
import { useNotice } from '../components/Notice';
import { FormCard } from '../components/FormCard';
import { CopyValue } from '../components/CopyValue';
import { useFields } from '../components/use-fields';
import { QuickFormButtons, useLinkColumns, useLinkEditor, useSearchedList } from '../components/link-list';
import { navigate, pathOfStats } from '../navigation';
import { api, type Campaign, type Membership } from '../api';
import { trackedUrl } from '../tracked-url';

function LinkBuilder({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation();
  const { form, field } = useFields({ cid: '', tracker: '' });
  const url = trackedUrl(campaign.campaignUrl, form.cid, form.tracker);
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('campaigns.builder', { name: campaign.name })}
      </Title>
      <Group align="flex-end" wrap="wrap">
        <TextInput label={t('campaigns.cid')} maxLength={100} w={200} {...field('cid')} />
        <TextInput label={t('campaigns.tracker')} maxLength={50} w={180} {...field('tracker')} />
      </Group>
      <Group mt="sm" gap="xs" wrap="nowrap">
        <Code data-testid="tracked-url" style={{ overflowWrap: 'anywhere' }}>
          {url}
        </Code>
        <CopyValue value={url} />
      </Group>
    </Card>
  );
}

export default function Campaigns({ membership }: { membership: Membership }) {
  const { t } = useTranslation();
  const orgId = membership.organizationId;
  const canWrite = membership.permissions.includes('links.write');
  const {
    list: campaigns,
    filters,
    emptyText,
    page,
    setPage,
  } = useSearchedList<Campaign>({ orgId, path: 'campaigns', param: 'search', label: t('campaigns.search') });
  const { notify, noticeBox } = useNotice();
  const [building, setBuilding] = useState<Campaign | null>(null);
  const { openNew, editButton, editor } = useLinkEditor({
    kind: 'campaign',
    orgId,
    path: 'campaigns',
    canWrite,
    notify,
    createdNotice: 'campaigns.created',
    address: (saved) => saved.campaignUrl,
    after: (saved, created) => created && setBuilding(saved),
  });
  const figures = useLinkColumns<Campaign>(orgId);
  const { form, field, reset } = useFields({ name: '', originalUrl: '', alias: '' }, !canWrite);

  const create = useAction({
    run: () =>
      api<Campaign>('POST', `/organizations/${orgId}/campaigns`, {
        name: form.name.trim(),
        originalUrl: form.originalUrl.trim(),
        ...(form.alias.trim() ? { alias: form.alias.trim() } : {}),
      }),
    after: (created) => {
      reset();
      setBuilding(created);
    },
    done: (created) => t('campaigns.created', { url: created.campaignUrl }),
    notify,
    invalidates: ['org', orgId, 'campaigns'],
  });
  const remove = useAction({
    run: (id: number) => api('DELETE', `/organizations/${orgId}/campaigns/${id}`),
    after: () => setBuilding(null),
    done: () => t('campaigns.deleted'),
    notify,
    invalidates: ['org', orgId, 'campaigns'],
  });
  const data = campaigns.data;

  return (
    <Stack>
      <Title order={2}>{t('campaigns.heading')}</Title>
      {noticeBox}
      <FormCard title={t('campaigns.create')} readOnly={!canWrite && t('links.readOnly')} action={create}>
        <Group align="flex-end" wrap="wrap">
          <TextInput required label={t('campaigns.name')} maxLength={50} w={220} {...field('name')} />
          <TextInput
            required
            type="url"
            label={t('links.destination')}
            placeholder="https://"
            w={300}
            {...field('originalUrl')}
          />
          <TextInput label={t('links.alias')} maxLength={50} w={160} {...field('alias')} />
          <QuickFormButtons canWrite={canWrite} pending={create.isPending} onMore={openNew} />
        </Group>
      </FormCard>
      {building && <LinkBuilder campaign={building} />}
      {filters}
      <DataTable
        query={campaigns}
        rows={data?.content}
        rowKey={(c) => c.id}
        empty={emptyText(t('campaigns.empty'))}
        paging={data && { page, totalPages: data.totalPages, onChange: setPage, label: t('links.pages') }}
        columns={[
          { header: t('campaigns.name'), cell: (c) => c.name },
          {
            header: t('campaigns.link'),
            cell: (c) => (
              <Anchor href={c.campaignUrl} target="_blank" rel="noopener">
                {c.campaignUrl}
              </Anchor>
            ),
          },
          ...figures,
          {
            cell: (c) => (
              <Group gap={4} wrap="nowrap">
                <RowButton variant="light" label={t('campaigns.build')} name={c.name} onClick={() => setBuilding(c)} />
                <RowButton
                  label={t('dashboard.stats')}
                  name={c.name}
                  onClick={() => navigate(pathOfStats('campaign', c.id))}
                />
                {editButton(c, c.name)}
                <DeleteButton
                  name={c.name}
                  confirm={t('campaigns.deleteConfirm', { name: c.name })}
                  onDelete={() => remove.mutate(c.id)}
                  disabled={!canWrite}
                />
              </Group>
            ),
          },
        ]}
      />
      {editor}
    </Stack>
  );
}
