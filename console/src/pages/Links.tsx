// Short links of the organization: search, pages, clicks, created and expiry; create one with its
// destination, title and alias; copy its address; delete it. Changes need the links.write
// permission: shown disabled without it, and refused by the server anyway.
import { Anchor, Button, Group, Pagination, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice, type NoticeState } from '../components/Notice';
import { QueryStatus } from '../components/QueryStatus';
import { FormCard } from '../components/FormCard';
import { CopyValue } from '../components/CopyValue';
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

  const key = ['org', orgId, 'urls', keyword, page];
  const links = useQuery({
    queryKey: key,
    queryFn: () => api<Page<ShortUrl>>('GET', `/organizations/${orgId}/urls?page=${page}&size=${SIZE}${keyword ? `&keyword=${encodeURIComponent(keyword)}` : ''}`),
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['org', orgId, 'urls'] });

  const create = useMutation({
    mutationFn: () => api<ShortUrl>('POST', `/organizations/${orgId}/urls`, { url, ...(title ? { title } : {}), ...(alias ? { customAlias: alias } : {}) }),
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
            <TextInput type="url" required label={t('links.destination')} placeholder="https://" value={url} onChange={(e) => setUrl(e.currentTarget.value)} disabled={!canWrite} w={320} />
            <TextInput label={t('links.title')} value={title} onChange={(e) => setTitle(e.currentTarget.value)} disabled={!canWrite} maxLength={200} w={200} />
            <TextInput label={t('links.alias')} value={alias} onChange={(e) => setAlias(e.currentTarget.value)} disabled={!canWrite} maxLength={50} w={160} />
            <Button type="submit" disabled={!canWrite} loading={create.isPending}>{t('links.createButton')}</Button>
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
                      <Anchor href={link.shortUrl} target="_blank" rel="noopener">{link.shortUrl}</Anchor>
                      {link.title && <Text size="sm" c="dimmed">{link.title}</Text>}
                    </Table.Td>
                    <Table.Td maw={280} style={{ overflowWrap: 'anywhere' }}>{link.originalUrl}</Table.Td>
                    <Table.Td ta="right">{link.clickCount.toLocaleString(i18n.language)}</Table.Td>
                    <Table.Td>{date(link.createdAt)}</Table.Td>
                    <Table.Td>{date(link.expiresAt)}</Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <CopyValue value={link.shortUrl} label={link.shortUrl} />
                        <Button
                          size="xs"
                          color="red"
                          variant="subtle"
                          disabled={!canWrite}
                          onClick={() => window.confirm(t('links.deleteConfirm', { url: link.shortUrl })) && remove.mutate(link.id)}
                        >
                          {t('links.delete')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {data.totalPages > 1 && (
            <Pagination total={data.totalPages} value={page + 1} onChange={(p) => setPage(p - 1)} aria-label={t('links.pages')} />
          )}
        </>
      )}
    </Stack>
  );
}
