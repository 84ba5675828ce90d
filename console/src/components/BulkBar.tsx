// What a person does to the links they ticked on the Links list, all at once: see their statistics
// together (the organization's dashboard narrowed to them; every role), and with links.write add or
// remove a tag, set or clear the expiry, archive or bring back, delete. A change reports how many links it
// changed and, one line each, those it could not. Deleting waits five seconds with an undo
// before anything is sent, the rows hidden meanwhile; leaving the screen sends it at once.
import { Affix, Alert, Autocomplete, Button, Card, Group, List, Notification, Text, TextInput } from '@mantine/core';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, type BulkDeleteAnswer, type BulkUpdateAnswer } from '../api';
import { linksDashboardSearch } from '../dashboard/dashboard-state';
import { expiryForApi } from '../link-form';
import { navigate, pathOf } from '../navigation';
import type { Selection } from './DataTable';
import type { NoticeState } from './Notice';
import { useTags } from './tags';
import { useAction } from './use-action';

const UNDO_MS = 5000;

type Change = { addTags?: string[]; removeTags?: string[]; expirationDate?: string | null; archived?: boolean };
type Failure = { id: number; message: string };

type Answer = BulkUpdateAnswer | BulkDeleteAnswer;

const failuresOf = (answer: Answer): Failure[] =>
  answer.results.flatMap((item) => ('error' in item ? [{ id: item.id, message: item.error.message }] : []));

export function useBulkActions({
  orgId,
  canWrite,
  notify,
  nameOf,
}: {
  orgId: number;
  canWrite: boolean;
  notify: (notice: NoticeState) => void;
  /** How a failure names its link (its short URL once the list has it). */
  nameOf: (id: number) => string;
}) {
  const { t } = useTranslation();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [failures, setFailures] = useState<Failure[]>([]);
  const [tag, setTag] = useState('');
  const [expires, setExpires] = useState('');
  const [pending, setPending] = useState<number[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const { list: tags } = useTags(orgId);
  const ids = [...selected];

  /** The notice after a bulk call: how many changed, and the failures listed under the bar. */
  const outcome = (answer: Answer, words: string): NoticeState | string => {
    const failed = failuresOf(answer);
    setFailures(failed);
    const count = answer.results.length - failed.length;
    return failed.length > 0
      ? { ok: false, text: `${t(words, { count })} ${t('bulk.failures', { count: failed.length })}` }
      : t(words, { count });
  };

  const change = useAction({
    run: (body: Change) => api<BulkUpdateAnswer>('PATCH', `/organizations/${orgId}/urls/bulk`, { ids, ...body }),
    done: (answer) => outcome(answer, 'bulk.changed'),
    notify,
    invalidates: ['org', orgId],
  });
  const remove = useAction({
    run: (gone: number[]) => api<BulkDeleteAnswer>('DELETE', `/organizations/${orgId}/urls/bulk`, { ids: gone }),
    after: () => setPending([]),
    done: (answer) => outcome(answer, 'bulk.deleted'),
    notify,
    invalidates: ['org', orgId],
  });

  // Leaving the screen within the undo window deletes at once: what was asked for is done.
  const flush = useRef<() => void>(() => {});
  flush.current = () => {
    if (timer.current === null) return;
    clearTimeout(timer.current);
    timer.current = null;
    void api('DELETE', `/organizations/${orgId}/urls/bulk`, { ids: pending });
  };
  useEffect(() => () => flush.current(), []);

  const deleteLater = () => {
    const gone = ids;
    setPending(gone);
    setSelected(new Set());
    setFailures([]);
    timer.current = setTimeout(() => {
      timer.current = null;
      remove.mutate(gone);
    }, UNDO_MS);
  };
  const undo = () => {
    if (timer.current !== null) clearTimeout(timer.current);
    timer.current = null;
    setPending([]);
    notify({ ok: true, text: t('bulk.undone') });
  };

  const selection: Selection<number> = {
    selected,
    onChange: (next) => {
      setSelected(next);
      setFailures([]);
    },
    label: (id) => t('links.select', { name: nameOf(id) }),
    allLabel: t('links.selectPage'),
  };

  const busy = change.isPending || remove.isPending;
  const tagName = tag.trim();
  // What only links.write may do to the ticked links.
  const writes = (
    <>
      <Autocomplete
        label={t('bulk.tag')}
        data={(tags.data?.items ?? []).map((item) => item.name)}
        value={tag}
        onChange={setTag}
        maxLength={50}
        w={180}
      />
      <Button variant="light" disabled={!tagName || busy} onClick={() => change.mutate({ addTags: [tagName] })}>
        {t('bulk.addTag')}
      </Button>
      <Button variant="light" disabled={!tagName || busy} onClick={() => change.mutate({ removeTags: [tagName] })}>
        {t('bulk.removeTag')}
      </Button>
      <TextInput
        type="datetime-local"
        label={t('bulk.expiry')}
        value={expires}
        onChange={(e) => setExpires(e.currentTarget.value)}
      />
      <Button
        variant="light"
        disabled={!expires || busy}
        onClick={() => change.mutate({ expirationDate: expiryForApi('url', expires) })}
      >
        {t('bulk.setExpiry')}
      </Button>
      <Button variant="light" disabled={busy} onClick={() => change.mutate({ expirationDate: null })}>
        {t('bulk.clearExpiry')}
      </Button>
      <Button variant="light" disabled={busy} onClick={() => change.mutate({ archived: true })}>
        {t('bulk.archive')}
      </Button>
      <Button variant="light" disabled={busy} onClick={() => change.mutate({ archived: false })}>
        {t('bulk.unarchive')}
      </Button>
      <Button color="red" variant="light" disabled={busy} onClick={deleteLater}>
        {t('bulk.delete')}
      </Button>
    </>
  );
  const bar = (
    <>
      <SelectionBar
        count={selected.size}
        onClear={() => setSelected(new Set())}
        statsSearch={linksDashboardSearch('url', ids)}
      >
        {canWrite && writes}
      </SelectionBar>
      {failures.length > 0 && (
        <Alert color="red" title={t('bulk.failures', { count: failures.length })} data-testid="bulk-failures">
          <List size="sm">
            {failures.map((f) => (
              <List.Item key={f.id}>{t('bulk.failure', { name: nameOf(f.id), message: f.message })}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {pending.length > 0 && (
        <Affix position={{ bottom: 20, right: 20 }}>
          <Notification withCloseButton={false} role="status" data-testid="undo-toast">
            <Group gap="sm" wrap="nowrap">
              <Text size="sm">{t('bulk.deleting', { count: pending.length })}</Text>
              <Button size="xs" variant="light" onClick={undo}>
                {t('bulk.undo')}
              </Button>
            </Group>
          </Notification>
        </Affix>
      )}
    </>
  );
  return { selection, bar, hidden: new Set(pending) };
}

/**
 * The bar over a list with ticked rows (short URLs or campaigns): how many, clearing them, their
 * statistics together on the organization's dashboard (`statsSearch`: its address's query), and
 * whatever else the list does to them (children). Nothing while no row is ticked.
 */
export function SelectionBar({
  count,
  onClear,
  statsSearch,
  children,
}: {
  count: number;
  onClear: () => void;
  statsSearch: string;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  if (count === 0) return null;
  return (
    <Card withBorder data-testid="bulk-bar" role="region" aria-label={t('bulk.selected', { count })}>
      <Group justify="space-between" mb="xs">
        <Text fw={600}>{t('bulk.selected', { count })}</Text>
        <Button size="xs" variant="subtle" onClick={onClear}>
          {t('bulk.clear')}
        </Button>
      </Group>
      <Group align="flex-end" wrap="wrap" gap="xs">
        <Button variant="light" onClick={() => navigate(`${pathOf('dashboard')}${statsSearch}`)}>
          {t('bulk.stats')}
        </Button>
        {children}
      </Group>
    </Card>
  );
}
