// Short links of the organization: search, a tag filter, the archived ones, pages, tags, clicks
// (and what is left of a limit), created and expiry; a quick form for a destination, title and
// alias, and the full editor for every other field (new or existing); copy its address, its QR
// code, delete it; tick several for a bulk change; export them as CSV. Changes need the links.write permission: shown
// disabled without it, and refused by the server anyway.
import { Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
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
import { useBulkActions } from '../components/BulkBar';
import { CsvImport } from '../components/CsvImport';
import { QrDialog } from '../components/QrDialog';
import { navigate, pathOfStats } from '../navigation';
import { api, type Membership, type ShortUrl } from '../api';

export default function Links({ membership }: { membership: Membership }) {
  const { t } = useTranslation();
  const orgId = membership.organizationId;
  const canWrite = membership.permissions.includes('links.write');
  const {
    list: links,
    filters,
    emptyText,
    page,
    setPage,
  } = useSearchedList<ShortUrl>({ orgId, path: 'urls', param: 'keyword', label: t('links.search') });
  const { notify, noticeBox } = useNotice();
  const { selection, bar, hidden } = useBulkActions({
    orgId,
    canWrite,
    notify,
    nameOf: (id) => links.data?.content.find((link) => link.id === id)?.shortUrl ?? `#${id}`,
  });
  const { openNew, editButton, editor } = useLinkEditor({
    kind: 'url',
    orgId,
    path: 'urls',
    canWrite,
    notify,
    createdNotice: 'links.created',
    address: (saved) => saved.shortUrl,
  });
  const figures = useLinkColumns<ShortUrl>(orgId);
  const { form, field, reset } = useFields({ url: '', title: '', alias: '' }, !canWrite);
  const [qrOf, setQrOf] = useState<ShortUrl | null>(null);
  const [importing, setImporting] = useState(false);

  const create = useAction({
    run: () =>
      api<ShortUrl>('POST', `/organizations/${orgId}/urls`, {
        url: form.url,
        ...(form.title ? { title: form.title } : {}),
        ...(form.alias ? { customAlias: form.alias } : {}),
      }),
    after: reset,
    done: (created) => t('links.created', { url: created.shortUrl }),
    notify,
    invalidates: ['org', orgId, 'urls'],
  });
  const remove = useAction({
    run: (id: number) => api('DELETE', `/organizations/${orgId}/urls/${id}`),
    done: () => t('links.deleted'),
    notify,
    invalidates: ['org', orgId, 'urls'],
  });

  const data = links.data;

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>{t('links.heading')}</Title>
        <Button variant="default" disabled={!canWrite} onClick={() => setImporting(true)}>
          {t('links.import')}
        </Button>
      </Group>
      {noticeBox}
      <FormCard title={t('links.create')} readOnly={!canWrite && t('links.readOnly')} action={create}>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            type="url"
            required
            label={t('links.destination')}
            placeholder="https://"
            w={320}
            {...field('url')}
          />
          <TextInput label={t('links.title')} maxLength={200} w={200} {...field('title')} />
          <TextInput label={t('links.alias')} maxLength={50} w={160} {...field('alias')} />
          <QuickFormButtons canWrite={canWrite} pending={create.isPending} onMore={openNew} />
        </Group>
      </FormCard>
      {filters}
      {bar}
      <DataTable
        query={links}
        rows={data?.content.filter((link) => !hidden.has(link.id))}
        rowKey={(link) => link.id}
        selection={selection}
        empty={emptyText(t('links.empty'))}
        paging={data && { page, totalPages: data.totalPages, onChange: setPage, label: t('links.pages') }}
        columns={[
          {
            header: t('links.shortUrl'),
            cell: (link) => (
              <>
                <Anchor href={link.shortUrl} target="_blank" rel="noopener">
                  {link.shortUrl}
                </Anchor>
                {link.title && (
                  <Text size="sm" c="dimmed">
                    {link.title}
                  </Text>
                )}
              </>
            ),
          },
          { header: t('links.destination'), cell: (link) => link.originalUrl, wrap: true },
          ...figures,
          {
            cell: (link) => (
              <Group gap={4} wrap="nowrap">
                <CopyValue value={link.shortUrl} label={link.shortUrl} />
                {editButton(link, link.shortUrl)}
                <RowButton
                  label={t('dashboard.stats')}
                  name={link.shortUrl}
                  onClick={() => navigate(pathOfStats('url', link.id))}
                />
                <RowButton label={t('links.qr')} name={link.shortUrl} onClick={() => setQrOf(link)} />
                <DeleteButton
                  name={link.shortUrl}
                  confirm={t('links.deleteConfirm', { url: link.shortUrl })}
                  onDelete={() => remove.mutate(link.id)}
                  disabled={!canWrite}
                />
              </Group>
            ),
          },
        ]}
      />
      {editor}
      {importing && <CsvImport orgId={orgId} notify={notify} onClose={() => setImporting(false)} />}
      {qrOf && <QrDialog orgId={orgId} link={qrOf} onClose={() => setQrOf(null)} />}
    </Stack>
  );
}
