// What the two lists of links (short links and campaigns) share: a search field that goes back to
// the first page, the searched list a page at a time, the figures columns (clicks, created,
// expiry), the quick form's buttons, and the editor opened on a link (null: a new one).
import { Button, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type Page } from '../api';
import type { LinkKind } from '../link-form';
import type { Column } from './DataTable';
import { RowButton } from './DeleteButton';
import type { LinkRecord } from './LinkEditor';
import type { NoticeState } from './Notice';

// The editor is its own chunk, loaded when a link is first opened: the list screens stay light
// (test/unit/console-bundle.test.ts).
// (The cast keeps the editor's generic props, which lazy() would flatten.)
const LinkEditor = lazy(() =>
  import('./LinkEditor').then((m) => ({ default: m.LinkEditor })),
) as unknown as typeof import('./LinkEditor').LinkEditor;

const SIZE = 20;

/** The list at `/organizations/{orgId}/{path}`, searched by `param` (the debounced field's words). */
export function useSearchedList<T>({
  orgId,
  path,
  param,
  label,
}: {
  orgId: number;
  path: string;
  param: string;
  label: string;
}) {
  const [search, setSearch] = useState('');
  const [term] = useDebouncedValue(search.trim(), 300);
  const [page, setPage] = useState(0);
  const list = useQuery({
    queryKey: ['org', orgId, path, term, page],
    queryFn: () =>
      api<Page<T>>(
        'GET',
        `/organizations/${orgId}/${path}?page=${page}&size=${SIZE}${term ? `&${param}=${encodeURIComponent(term)}` : ''}`,
      ),
    placeholderData: keepPreviousData,
  });
  const field = (
    <TextInput
      label={label}
      value={search}
      onChange={(e) => {
        setSearch(e.currentTarget.value);
        setPage(0);
      }}
      maxLength={100}
      w={320}
    />
  );
  return { list, term, field, page, setPage };
}

/** Clicks, when it was made and when it expires. */
export function useLinkFigures<
  T extends { clickCount: number; createdAt: string; expiresAt: string | null },
>(): Column<T>[] {
  const { t, i18n } = useTranslation();
  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString(i18n.language) : '—');
  return [
    { header: t('links.clicks'), align: 'right', cell: (link) => link.clickCount.toLocaleString(i18n.language) },
    { header: t('links.createdAt'), cell: (link) => date(link.createdAt) },
    { header: t('links.expiresAt'), cell: (link) => date(link.expiresAt) },
  ];
}

/** The quick form's create button and the way to the full editor. */
export function QuickFormButtons({
  canWrite,
  pending,
  onMore,
}: {
  canWrite: boolean;
  pending: boolean;
  onMore: () => void;
}) {
  const { t } = useTranslation();
  return (
    <>
      <Button type="submit" disabled={!canWrite} loading={pending}>
        {t('links.createButton')}
      </Button>
      <Button variant="subtle" disabled={!canWrite} onClick={onMore}>
        {t('links.moreOptions')}
      </Button>
    </>
  );
}

/**
 * The full editor on a link of the list at `path`: a new one (openNew) or a row's (editButton, "view"
 * for a role that may only look). Saving closes it, says so with the link's address and reloads the list.
 */
export function useLinkEditor<K extends LinkKind>({
  kind,
  orgId,
  path,
  canWrite,
  notify,
  createdNotice,
  address,
  after,
}: {
  kind: K;
  orgId: number;
  path: string;
  canWrite: boolean;
  notify: (notice: NoticeState) => void;
  createdNotice: string;
  address: (saved: LinkRecord<K>) => string;
  after?: (saved: LinkRecord<K>, created: boolean) => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  /** The link in the editor: null for a new one; undefined while the editor is closed. */
  const [editing, setEditing] = useState<LinkRecord<K> | null | undefined>(undefined);
  const editor = editing !== undefined && (
    <Suspense fallback={null}>
      <LinkEditor
        kind={kind}
        orgId={orgId}
        record={editing}
        readOnly={!canWrite}
        onClose={() => setEditing(undefined)}
        onSaved={(saved, created) => {
          setEditing(undefined);
          notify({ ok: true, text: t(created ? createdNotice : 'links.saved', { url: address(saved) }) });
          after?.(saved, created);
          void queryClient.invalidateQueries({ queryKey: ['org', orgId, path] });
        }}
      />
    </Suspense>
  );
  const editButton = (record: LinkRecord<K>, name: string) => (
    <RowButton label={t(canWrite ? 'links.edit' : 'links.view')} name={name} onClick={() => setEditing(record)} />
  );
  return { openNew: () => setEditing(null), editButton, editor };
}
