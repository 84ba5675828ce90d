// Short links of the organization: search, a tag filter, the archived ones, pages, tags, clicks
// (and what is left of a limit), created and expiry; a quick form for a destination, title and
// alias, and the full editor for every other field (new or existing); copy its address, its QR
// code, delete it; tick several for a bulk change or their statistics together; export them as CSV. Changes need the links.write permission: shown
// disabled without it, and refused by the server anyway.
import { Anchor, Button, Group, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '../components/DataTable';
import { RowButton } from '../components/DeleteButton';
import { CopyValue } from '../components/CopyValue';
import { QuickForm, useLinkScreen } from '../components/link-list';
import { Screen } from '../components/Screen';
import { useBulkActions } from '../components/BulkBar';
import { CsvImport } from '../components/CsvImport';
import { QrDialog } from '../components/QrDialog';
import type { Membership, ShortUrl } from '../api';

export default function Links({ membership }: { membership: Membership }) {
  const { t } = useTranslation();
  const screen = useLinkScreen({
    membership,
    kind: 'url',
    search: { param: 'keyword', label: t('links.search') },
    notices: { created: 'links.created', deleted: 'links.deleted' },
    address: (saved) => saved.shortUrl,
    quick: {
      fields: { url: '', title: '', alias: '' },
      body: (form) => ({
        url: form.url,
        ...(form.title ? { title: form.title } : {}),
        ...(form.alias ? { customAlias: form.alias } : {}),
      }),
    },
  });
  const { orgId, canWrite, notify, field } = screen;
  const { selection, bar, hidden } = useBulkActions({
    orgId,
    canWrite,
    notify,
    nameOf: (id) => screen.list.data?.content.find((link) => link.id === id)?.shortUrl ?? `#${id}`,
  });
  const [qrOf, setQrOf] = useState<ShortUrl | null>(null);
  const [importing, setImporting] = useState(false);

  return (
    <Screen
      heading={t('links.heading')}
      aside={
        <Button variant="default" disabled={!canWrite} onClick={() => setImporting(true)}>
          {t('links.import')}
        </Button>
      }
      notice={screen.noticeBox}
    >
      <QuickForm title={t('links.create')} canWrite={canWrite} action={screen.create} onMore={screen.openNew}>
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
      </QuickForm>
      {screen.filters}
      {bar}
      <DataTable
        query={screen.list}
        rows={screen.list.data?.content.filter((link) => !hidden.has(link.id))}
        selection={selection}
        empty={screen.emptyText(t('links.empty'))}
        paging={screen.paging}
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
          ...screen.figures,
          {
            cell: (link) => (
              <Group gap={4} wrap="nowrap">
                <CopyValue value={link.shortUrl} label={link.shortUrl} />
                {screen.editButton(link, link.shortUrl)}
                {screen.statsButton(link, link.shortUrl)}
                <RowButton label={t('links.qr')} name={link.shortUrl} onClick={() => setQrOf(link)} />
                {screen.deleteButton(link, link.shortUrl, t('links.deleteConfirm', { url: link.shortUrl }))}
              </Group>
            ),
          },
        ]}
      />
      {screen.editor}
      {importing && <CsvImport orgId={orgId} notify={notify} onClose={() => setImporting(false)} />}
      {qrOf && <QrDialog orgId={orgId} link={qrOf} onClose={() => setQrOf(null)} />}
    </Screen>
  );
}
