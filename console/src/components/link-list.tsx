// What the two lists of links (short links and campaigns) share: a search field that goes back to
// the first page, a tag filter (kept in the address, ?tag=) and the archived switch, the searched
// list a page at a time, the tags column (chips in the tags' colours), the figures columns
// (clicks and what is left of a limit, created, expiry), the CSV export, the quick form, the
// editor opened on a link (null: a new one), and the row's statistics and delete buttons.
import { Badge, Button, Group, Select, Switch, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type Membership, type Page, type ShortUrl } from '../api';
import type { LinkKind } from '../link-form';
import { navigate, pathOfStats } from '../navigation';
import type { Column } from './DataTable';
import { DeleteButton, RowButton } from './DeleteButton';
import { FormCard } from './FormCard';
import type { LinkRecord } from './LinkEditor';
import { type NoticeState, useNotice } from './Notice';
import { TagChips, useTags } from './tags';
import { useAction } from './use-action';
import { useFields } from './use-fields';
import { usePages } from './use-pages';

// The editor is its own chunk, loaded when a link is first opened: the list screens stay light
// (test/unit/console-bundle.test.ts).
// (The cast keeps the editor's generic props, which lazy() would flatten.)
const LinkEditor = lazy(() =>
  import('./LinkEditor').then((m) => ({ default: m.LinkEditor })),
) as unknown as typeof import('./LinkEditor').LinkEditor;

const SIZE = 20;

/** The tag the address names (`?tag=`), read when the list opens. */
const tagInAddress = () => new URLSearchParams(window.location.search).get('tag');

/** The filter's query string: `tag=…&archived=true`, each only when set. */
function filterQuery(tag: string | null, archived: boolean): string {
  const query = new URLSearchParams();
  if (tag) query.set('tag', tag);
  if (archived) query.set('archived', 'true');
  return query.toString();
}

/**
 * The list at `/organizations/{orgId}/{path}`, searched by `param` (the debounced field's words),
 * filtered by a tag and to archived links; `filters` is the search field, the tag select and the
 * archived switch.
 */
function useSearchedList<T>({
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
  const { page, setPage, paging } = usePages();
  const [tag, setTag] = useState(tagInAddress);
  const [archived, setArchived] = useState(false);
  const { t } = useTranslation();
  const { list: tags } = useTags(orgId);
  const filter = filterQuery(tag, archived);
  const list = useQuery({
    queryKey: ['org', orgId, path, term, page, tag, archived],
    queryFn: () =>
      api<Page<T>>(
        'GET',
        `/organizations/${orgId}/${path}?page=${page}&size=${SIZE}${term ? `&${param}=${encodeURIComponent(term)}` : ''}${filter ? `&${filter}` : ''}`,
      ),
    placeholderData: keepPreviousData,
  });
  const chooseTag = (value: string | null) => {
    setTag(value);
    setPage(0);
    const address = new URL(window.location.href);
    if (value) address.searchParams.set('tag', value);
    else address.searchParams.delete('tag');
    window.history.replaceState(null, '', address);
  };
  const filters = (
    <Group align="flex-end" wrap="wrap">
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
      <Select
        label={t('links.tagFilter')}
        placeholder={t('links.allTags')}
        data={[...new Set([...(tags.data?.items ?? []).map((item) => item.name), ...(tag ? [tag] : [])])]}
        value={tag}
        onChange={chooseTag}
        clearable
        searchable
        w={220}
      />
      <Switch
        label={t('links.showArchived')}
        checked={archived}
        onChange={(e) => {
          setArchived(e.currentTarget.checked);
          setPage(0);
        }}
        mb={8}
      />
      <Button
        component="a"
        variant="default"
        href={`/console/api/organizations/${orgId}/${path}/export${filter ? `?${filter}` : ''}`}
        download={`${path}.csv`}
      >
        {t('links.export')}
      </Button>
    </Group>
  );
  /** What an empty list says: nothing matches the search or tag, no archived link, or none at all. */
  const emptyText = (none: string) => (term || tag ? t('links.noMatch') : archived ? t('links.archivedEmpty') : none);
  return { list, filters, emptyText, paging: paging(list.data) };
}

type Managed = Pick<ShortUrl, 'tags' | 'archived' | 'passwordProtected'>;

/** The tags as chips, and whether the link is archived or asks for a password. */
function useTagColumn<T extends Managed>(orgId: number): Column<T> {
  const { t } = useTranslation();
  const { list: tags } = useTags(orgId);
  return {
    header: t('links.tags'),
    cell: (link) => (
      <Group gap={4}>
        <TagChips names={link.tags} tags={tags.data} />
        {link.archived && (
          <Badge size="sm" variant="outline" color="gray">
            {t('links.archived')}
          </Badge>
        )}
        {link.passwordProtected && (
          <Badge size="sm" variant="outline" color="teal">
            {t('links.protected')}
          </Badge>
        )}
      </Group>
    ),
  };
}

/** The tags, clicks (and those left under a limit), when it was made and when it expires. */
function useLinkColumns<
  T extends Managed & {
    clickCount: number;
    createdAt: string;
    expiresAt: string | null;
    remainingClicks: number | null;
  },
>(orgId: number): Column<T>[] {
  const { t, i18n } = useTranslation();
  const tagColumn = useTagColumn<T>(orgId);
  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleDateString(i18n.language) : '—');
  return [
    tagColumn,
    {
      header: t('links.clicks'),
      align: 'right',
      cell: (link) => (
        <>
          {link.clickCount.toLocaleString(i18n.language)}
          {link.remainingClicks !== null && (
            <Text size="xs" c="dimmed" data-testid="remaining-clicks">
              {t('links.remaining', { count: link.remainingClicks })}
            </Text>
          )}
        </>
      ),
    },
    { header: t('links.createdAt'), cell: (link) => date(link.createdAt) },
    { header: t('links.expiresAt'), cell: (link) => date(link.expiresAt) },
  ];
}

/** The quick form: a few fields (the children), its create button and the way to the full editor. */
export function QuickForm({
  title,
  canWrite,
  action,
  onMore,
  children,
}: {
  title: string;
  canWrite: boolean;
  action: { mutate: () => void; isPending: boolean };
  onMore: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <FormCard title={title} readOnly={!canWrite && t('links.readOnly')} action={action}>
      <Group align="flex-end" wrap="wrap">
        {children}
        <Button type="submit" disabled={!canWrite} loading={action.isPending}>
          {t('links.createButton')}
        </Button>
        <Button variant="subtle" disabled={!canWrite} onClick={onMore}>
          {t('links.moreOptions')}
        </Button>
      </Group>
    </FormCard>
  );
}

/**
 * The full editor on a link of the list at `path`: a new one (openNew) or a row's (editButton, "view"
 * for a role that may only look). Saving closes it, says so with the link's address and reloads the list.
 */
function useLinkEditor<K extends LinkKind>({
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

const PATHS: Record<LinkKind, string> = { url: 'urls', campaign: 'campaigns' };

/**
 * A screen of links of one kind, for a member: the searched list a page at a time, the screen's
 * notice, the quick form's fields and its action (a link made from them), the editor, the figures
 * columns, and the buttons every row has: its statistics, and deleting it after a confirmation.
 */
export function useLinkScreen<K extends LinkKind, F extends Record<string, string>>({
  membership,
  kind,
  search,
  notices,
  address,
  quick,
  afterSave,
  afterDelete,
}: {
  membership: Membership;
  kind: K;
  /** The list's search parameter and the search field's label. */
  search: { param: string; label: string };
  /** The keys of the notices: a link made ({{url}}: its address), one deleted. */
  notices: { created: string; deleted: string };
  address: (saved: LinkRecord<K>) => string;
  /** The quick form's fields (empty), and the link they describe, as the API takes it. */
  quick: { fields: F; body: (form: F) => object };
  /** After a link is saved, in the quick form (created) or in the editor. */
  afterSave?: (saved: LinkRecord<K>, created: boolean) => void;
  afterDelete?: () => void;
}) {
  const { t } = useTranslation();
  const orgId = membership.organizationId;
  const canWrite = membership.permissions.includes('links.write');
  const path = PATHS[kind];
  const searched = useSearchedList<LinkRecord<K>>({ orgId, path, ...search });
  const { notify, noticeBox } = useNotice();
  const { openNew, editButton, editor } = useLinkEditor({
    kind,
    orgId,
    path,
    canWrite,
    notify,
    createdNotice: notices.created,
    address,
    ...(afterSave ? { after: afterSave } : {}),
  });
  const figures = useLinkColumns<LinkRecord<K>>(orgId);
  const { form, field, reset } = useFields(quick.fields, !canWrite);
  const create = useAction({
    run: () => api<LinkRecord<K>>('POST', `/organizations/${orgId}/${path}`, quick.body(form)),
    after: (created) => {
      reset();
      afterSave?.(created, true);
    },
    done: (created) => t(notices.created, { url: address(created) }),
    notify,
    invalidates: ['org', orgId, path],
  });
  const remove = useAction({
    run: (id: number) => api('DELETE', `/organizations/${orgId}/${path}/${id}`),
    ...(afterDelete ? { after: afterDelete } : {}),
    done: () => t(notices.deleted),
    notify,
    invalidates: ['org', orgId, path],
  });
  const statsButton = (link: LinkRecord<K>, name: string) => (
    <RowButton label={t('dashboard.stats')} name={name} onClick={() => navigate(pathOfStats(kind, link.id))} />
  );
  const deleteButton = (link: LinkRecord<K>, name: string, confirm: string) => (
    <DeleteButton name={name} confirm={confirm} onDelete={() => remove.mutate(link.id)} disabled={!canWrite} />
  );
  return {
    orgId,
    canWrite,
    ...searched,
    notify,
    noticeBox,
    field,
    create,
    openNew,
    editButton,
    editor,
    figures,
    statsButton,
    deleteButton,
  };
}
