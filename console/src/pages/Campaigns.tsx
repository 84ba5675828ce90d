// Campaigns: named tracked links with an alias. Search, a tag filter, the archived ones, pages,
// tags, clicks and expiry; the ticked ones' statistics together; export as CSV; create one
// quickly or with every field in the editor, edit and delete it; and for each a link builder that
// adds the user tracking id (cid) and a tracker, ready to copy.
import { Anchor, Card, Code, Group, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectionBar } from '../components/BulkBar';
import { DataTable, type Selection } from '../components/DataTable';
import { linksDashboardSearch } from '../dashboard/dashboard-state';
import { RowButton } from '../components/DeleteButton';
import { CopyValue } from '../components/CopyValue';
import { useFields } from '../components/use-fields';
import { QuickForm, useLinkScreen } from '../components/link-list';
import { Screen } from '../components/Screen';
import type { Campaign, Membership } from '../api';
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
  const [building, setBuilding] = useState<Campaign | null>(null);
  const screen = useLinkScreen({
    membership,
    kind: 'campaign',
    search: { param: 'search', label: t('campaigns.search') },
    notices: { created: 'campaigns.created', deleted: 'campaigns.deleted' },
    address: (saved) => saved.campaignUrl,
    quick: {
      fields: { name: '', originalUrl: '', alias: '' },
      body: (form) => ({
        name: form.name.trim(),
        originalUrl: form.originalUrl.trim(),
        ...(form.alias.trim() ? { alias: form.alias.trim() } : {}),
      }),
    },
    afterSave: (saved, created) => created && setBuilding(saved),
    afterDelete: () => setBuilding(null),
  });
  const { field } = screen;
  // Ticked campaigns: their statistics together on the organization's dashboard (every role).
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const nameOf = (id: number) => screen.list.data?.content.find((c) => c.id === id)?.name ?? `#${id}`;
  const selection: Selection<number> = {
    selected: chosen,
    onChange: setChosen,
    label: (id) => t('links.select', { name: nameOf(id) }),
    allLabel: t('links.selectPage'),
  };

  return (
    <Screen heading={t('campaigns.heading')} notice={screen.noticeBox}>
      <QuickForm
        title={t('campaigns.create')}
        canWrite={screen.canWrite}
        action={screen.create}
        onMore={screen.openNew}
      >
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
      </QuickForm>
      {building && <LinkBuilder campaign={building} />}
      {screen.filters}
      <SelectionBar
        count={chosen.size}
        onClear={() => setChosen(new Set())}
        statsSearch={linksDashboardSearch('campaign', [...chosen])}
      />
      <DataTable
        query={screen.list}
        rows={screen.list.data?.content}
        selection={selection}
        empty={screen.emptyText(t('campaigns.empty'))}
        paging={screen.paging}
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
          ...screen.figures,
          {
            cell: (c) => (
              <Group gap={4} wrap="nowrap">
                <RowButton variant="light" label={t('campaigns.build')} name={c.name} onClick={() => setBuilding(c)} />
                {screen.statsButton(c, c.name)}
                {screen.editButton(c, c.name)}
                {screen.deleteButton(c, c.name, t('campaigns.deleteConfirm', { name: c.name }))}
              </Group>
            ),
          },
        ]}
      />
      {screen.editor}
    </Screen>
  );
}
