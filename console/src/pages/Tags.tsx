// Tags: the organization's labels for links and campaigns, with their colour and how many links
// carry each. Make one, rename or recolour it (every link shows the change), delete it after a
// confirmation that says how many links lose it. Changes need links.write. Each tag's statistics
// are the organization's dashboard filtered by it.
import { Button, ColorInput, ColorSwatch, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, fieldErrors, type Membership, type Tag } from '../api';
import { DataTable } from '../components/DataTable';
import { DeleteButton, RowButton } from '../components/DeleteButton';
import { FormCard } from '../components/FormCard';
import { Screen } from '../components/Screen';
import { useNotice } from '../components/Notice';
import { useTags } from '../components/tags';
import { useAction } from '../components/use-action';
import { navigate, pathOf } from '../navigation';

/** Mantine's palette at shade 7: dark enough for white text, the colours a tag gets by default. */
const SWATCHES = ['#1971c2', '#2f9e44', '#e03131', '#f08c00', '#9c36b5', '#0c8599', '#c2255c', '#495057'];

interface TagForm {
  name: string;
  color: string;
}

/** The name and colour of a tag, new or being edited, with what the server refused beside each. */
function TagFields({
  form,
  onChange,
  error,
  disabled = false,
}: {
  form: TagForm;
  onChange: (form: TagForm) => void;
  error: unknown;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const errors = fieldErrors(error);
  return (
    <>
      <TextInput
        required
        label={t('tags.name')}
        maxLength={50}
        w={220}
        value={form.name}
        onChange={(e) => onChange({ ...form, name: e.currentTarget.value })}
        error={errors.name}
        disabled={disabled}
      />
      <ColorInput
        label={t('tags.color')}
        format="hex"
        swatches={SWATCHES}
        withEyeDropper={false}
        withPicker={false}
        w={220}
        value={form.color}
        onChange={(color) => onChange({ ...form, color })}
        error={errors.color}
        disabled={disabled}
      />
    </>
  );
}

export default function Tags({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const orgId = membership.organizationId;
  const canWrite = membership.permissions.includes('links.write');
  const { key, list: tags } = useTags(orgId);
  const { notify, noticeBox } = useNotice();
  const [draft, setDraft] = useState<TagForm>({ name: '', color: '' });
  const [editing, setEditing] = useState<(TagForm & { id: number }) | null>(null);

  const body = (form: TagForm) => ({ name: form.name.trim(), ...(form.color ? { color: form.color } : {}) });
  const create = useAction({
    run: () => api<Tag>('POST', `/organizations/${orgId}/tags`, body(draft)),
    after: () => setDraft({ name: '', color: '' }),
    done: (tag) => t('tags.created', { name: tag.name }),
    notify,
    invalidates: key,
  });
  const save = useAction({
    run: (form: TagForm & { id: number }) => api<Tag>('PUT', `/organizations/${orgId}/tags/${form.id}`, body(form)),
    after: () => setEditing(null),
    done: (tag) => t('tags.saved', { name: tag.name }),
    notify,
    invalidates: ['org', orgId],
  });
  const remove = useAction({
    run: (tag: Tag) => api('DELETE', `/organizations/${orgId}/tags/${tag.id}`),
    done: (_, tag) => t('tags.deleted', { name: tag.name }),
    notify,
    invalidates: ['org', orgId],
  });

  return (
    <Screen heading={t('tags.heading')} notice={noticeBox}>
      <FormCard
        title={t('tags.create')}
        readOnly={!canWrite && t('tags.readOnly')}
        action={create}
        submit={{ label: t('tags.createButton'), errorsBelow: true }}
      >
        <TagFields form={draft} onChange={setDraft} error={create.error} disabled={!canWrite} />
      </FormCard>
      <DataTable
        query={tags}
        rows={tags.data?.items}
        minWidth={560}
        empty={t('tags.empty')}
        testId="tags"
        columns={[
          {
            header: t('tags.name'),
            cell: (tag) => (
              <Group gap="xs" wrap="nowrap">
                <ColorSwatch color={tag.color} size={18} aria-hidden />
                <Text size="sm">{tag.name}</Text>
              </Group>
            ),
          },
          {
            header: t('tags.color'),
            cell: (tag) => (
              <Text ff="monospace" size="sm">
                {tag.color}
              </Text>
            ),
          },
          { header: t('tags.linkCount'), align: 'right', cell: (tag) => tag.linkCount.toLocaleString(i18n.language) },
          { header: t('tags.createdAt'), cell: (tag) => new Date(tag.createdAt).toLocaleDateString(i18n.language) },
          {
            cell: (tag) => (
              <Group gap={4} wrap="nowrap">
                <RowButton
                  label={t('tags.stats')}
                  name={tag.name}
                  onClick={() => navigate(`${pathOf('dashboard')}?${new URLSearchParams({ tag: tag.name })}`)}
                />
                <RowButton
                  label={t('tags.edit')}
                  name={tag.name}
                  disabled={!canWrite}
                  onClick={() => {
                    save.reset();
                    setEditing({ id: tag.id, name: tag.name, color: tag.color });
                  }}
                />
                <DeleteButton
                  name={tag.name}
                  confirm={t('tags.deleteConfirm', { name: tag.name, count: tag.linkCount })}
                  onDelete={() => remove.mutate(tag)}
                  disabled={!canWrite}
                />
              </Group>
            ),
          },
        ]}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing && t('tags.editTitle', { name: editing.name })}
        closeButtonProps={{ 'aria-label': t('close') }}
      >
        {editing && (
          <form
            onSubmit={(e) => {
              e.preventDefault();
              save.mutate(editing);
            }}
          >
            <Stack>
              <TagFields form={editing} onChange={(form) => setEditing({ ...editing, ...form })} error={save.error} />
              <Group justify="flex-end">
                <Button variant="default" onClick={() => setEditing(null)}>
                  {t('editor.cancel')}
                </Button>
                <Button type="submit" loading={save.isPending}>
                  {t('tags.save')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Modal>
    </Screen>
  );
}
