// Short links of the organization: search, pages, clicks, created and expiry; a quick form for a
// destination, title and alias, and the full editor for every other field (new or existing);
// copy its address, its QR code, delete it. Changes need the links.write permission: shown
// disabled without it, and refused by the server anyway.
import { Anchor, Button, Group, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DeleteButton } from '../components/DeleteButton';
import { Notice, type NoticeState } from '../components/Notice';
import { QueryStatus } from '../components/QueryStatus';
import { FormCard } from '../components/FormCard';
import { CopyValue } from '../components/CopyValue';
import { LinkEditor } from '../components/LinkEditor';
import { QrDialog } from '../components/QrDialog';
import { navigate, pathOfStats } from '../navigation';
import { api, type Membership, type Page, type ShortUrl } from '../api';

const SIZE = 20;

export default function Links({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const orgId = membership.organizationId;
  const canWrite = membership.permissions.includes('links.write');
  const [search, setSearch] = useState('');
  const [keyword] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(0);
  const [url, setUrl] = useState('');
  const [title, setTitle] = useState('');
  const [alias, setAlias] = useState('');
  const [notice, setNotice] = useState<NoticeState | null>(null);
  /** The link in the editor: null for a new one; undefined while the editor is closed. */
  const [editing, setEditing] = useState<ShortUrl | null | undefined>(undefined);
  const [qrOf, setQrOf] = useState<ShortUrl | null>(null);

  const key = ['org', orgId, 'urls', keyword, page];
  const links = useQuery({
    queryKey: key,
    queryFn: () =>
      api<Page<ShortUrl>>(
        'GET',
        `/organizations/${orgId}/urls?page=${page}&size=${SIZE}${keyword ? `&keyword=${encodeURIComponent(keyword)}` : ''}`,
      ),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['org', orgId, 'urls'] });

  const create = useMutation({
    mutationFn: () =>
      api<ShortUrl>('POST', `/organizations/${orgId}/urls`, {
        url,
        ...(title ? { title } : {}),
        ...(alias ? { customAlias: alias } : {}),
      }),
    onSuccess: (created) => {
      setUrl('');
      setTitle('');
      setAlias('');
      setNotice({ ok: true, text: t('links.created', { url: created.shortUrl }) });
      void refresh();
    },
    onError: (error: Error) => setNotice({ ok: false, text: error.message }),
  });
  const remove = useMutation({
    mutationFn: (id: number) => api('DELETE', `/organizations/${orgId}/urls/${id}`),
    onSuccess: () => {
      setNotice({ ok: true, text: t('links.deleted') });
      void refresh();
    },
    onError: (error: Error) => setNotice({ ok: false, text: error.message }),
  });

  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString(i18n.language) : '—');
  const data = links.data;

  return (
    <Stack>
      <Title order={2}>{t('links.heading')}</Title>
      <Notice notice={notice} onClose={() => setNotice(null)} />
      <FormCard title={t('links.create')} readOnly={!canWrite && t('links.readOnly')} onSubmit={() => create.mutate()}>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            type="url"
            required
            label={t('links.destination')}
            placeholder="https://"
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            disabled={!canWrite}
            w={320}
          />
          <TextInput
            label={t('links.title')}
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            disabled={!canWrite}
            maxLength={200}
            w={200}
          />
          <TextInput
            label={t('links.alias')}
            value={alias}
            onChange={(e) => setAlias(e.currentTarget.value)}
            disabled={!canWrite}
            maxLength={50}
            w={160}
          />
          <Button type="submit" disabled={!canWrite} loading={create.isPending}>
            {t('links.createButton')}
          </Button>
          <Button variant="subtle" disabled={!canWrite} onClick={() => setEditing(null)}>
            {t('links.moreOptions')}
          </Button>
        </Group>
      </FormCard>
      <TextInput
        label={t('links.search')}
        value={search}
        onChange={(e) => {
          setSearch(e.currentTarget.value);
          setPage(0);
        }}
        maxLength={100}
        w={320}
      />
      <QueryStatus query={links} />
      {data && data.totalElements === 0 && <Text c="dimmed">{keyword ? t('links.noMatch') : t('links.empty')}</Text>}
      {data && data.content.length > 0 && (
        <>
          <Table.ScrollContainer minWidth={720}>
            <Table striped highlightOnHover>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('links.shortUrl')}</Table.Th>
                  <Table.Th>{t('links.destination')}</Table.Th>
                  <Table.Th ta="right">{t('links.clicks')}</Table.Th>
                  <Table.Th>{t('links.createdAt')}</Table.Th>
                  <Table.Th>{t('links.expiresAt')}</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.content.map((link) => (
                  <Table.Tr key={link.id}>
                    <Table.Td>
                      <Anchor href={link.shortUrl} target="_blank" rel="noopener">
                        {link.shortUrl}
                      </Anchor>
                      {link.title && (
                        <Text size="sm" c="dimmed">
                          {link.title}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td maw={280} style={{ overflowWrap: 'anywhere' }}>
                      {link.originalUrl}
                    </Table.Td>
                    <Table.Td ta="right">{link.clickCount.toLocaleString(i18n.language)}</Table.Td>
                    <Table.Td>{date(link.createdAt)}</Table.Td>
                    <Table.Td>{date(link.expiresAt)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <CopyValue value={link.shortUrl} label={link.shortUrl} />
                        <Button
                          size="xs"
                          variant="subtle"
                          onClick={() => setEditing(link)}
                          aria-label={`${t(canWrite ? 'links.edit' : 'links.view')}: ${link.shortUrl}`}
                        >
                          {t(canWrite ? 'links.edit' : 'links.view')}
                        </Button>
                        <Button
                          size="xs"
                          variant="subtle"
                          onClick={() => navigate(pathOfStats('url', link.id))}
                          aria-label={`${t('dashboard.stats')}: ${link.shortUrl}`}
                        >
                          {t('dashboard.stats')}
                        </Button>
                        <Button
                          size="xs"
                          variant="subtle"
                          onClick={() => setQrOf(link)}
                          aria-label={`${t('links.qr')}: ${link.shortUrl}`}
                        >
                          {t('links.qr')}
                        </Button>
                        <DeleteButton
                          name={link.shortUrl}
                          confirm={t('links.deleteConfirm', { url: link.shortUrl })}
                          onDelete={() => remove.mutate(link.id)}
                          disabled={!canWrite}
                        />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {data.totalPages > 1 && (
            <Pagination
              total={data.totalPages}
              value={page + 1}
              onChange={(p) => setPage(p - 1)}
              aria-label={t('links.pages')}
            />
          )}
        </>
      )}
      {editing !== undefined && (
        <LinkEditor
          kind="url"
          orgId={orgId}
          record={editing}
          readOnly={!canWrite}
          onClose={() => setEditing(undefined)}
          onSaved={(saved, created) => {
            setEditing(undefined);
            setNotice({ ok: true, text: t(created ? 'links.created' : 'links.saved', { url: saved.shortUrl }) });
            void refresh();
          }}
        />
      )}
      {qrOf && <QrDialog orgId={orgId} link={qrOf} onClose={() => setQrOf(null)} />}
    </Stack>
  );
}
