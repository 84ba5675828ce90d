// Goal types: the spec's presets and the organization's own, offered in the link editor. Adding
// and removing need links.write; a preset stays. Removing a type changes no link that uses it.
import { Badge, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormCard } from '../components/FormCard';
import { Screen } from '../components/Screen';
import { DeleteButton } from '../components/DeleteButton';
import { useNotice } from '../components/Notice';
import { DataTable } from '../components/DataTable';
import { useFields } from '../components/use-fields';
import { useOrgList } from '../components/use-org-list';
import { useAction } from '../components/use-action';
import { api, fieldErrors, type GoalType, type Membership } from '../api';

export default function GoalTypes({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const orgId = membership.organizationId;
  const canWrite = membership.permissions.includes('links.write');
  const { key, list: types } = useOrgList<GoalType[]>(orgId, 'goal-types', 'goal-types');
  const { form, field, reset } = useFields({ name: '', description: '' }, !canWrite);
  const { notify, noticeBox } = useNotice();

  const add = useAction({
    run: () =>
      api<GoalType>('POST', `/organizations/${orgId}/goal-types`, {
        name: form.name.trim(),
        ...(form.description.trim() ? { description: form.description.trim() } : {}),
      }),
    after: reset,
    done: (added) => t('goals.added', { name: added.name }),
    notify,
    invalidates: key,
  });
  const remove = useAction({
    run: (goal: string) => api('DELETE', `/organizations/${orgId}/goal-types/${encodeURIComponent(goal)}`),
    done: (_, goal) => t('goals.removed', { name: goal }),
    notify,
    invalidates: key,
  });
  const errors = fieldErrors(add.error);
  const own = types.data?.filter((g) => !g.preset) ?? [];

  return (
    <Screen heading={t('goals.heading')} intro={t('goals.intro')} notice={noticeBox}>
      <FormCard
        title={t('goals.add')}
        readOnly={!canWrite && t('links.readOnly')}
        action={add}
        submit={{ label: t('goals.addButton'), errorsBelow: true }}
      >
        <TextInput
          required
          label={t('goals.name')}
          placeholder="newsletterSignup"
          maxLength={50}
          w={240}
          error={errors.name}
          {...field('name')}
        />
        <TextInput
          label={t('goals.description')}
          maxLength={200}
          w={320}
          error={errors.description}
          {...field('description')}
        />
      </FormCard>
      <DataTable
        query={types}
        rows={types.data}
        rowKey={(g) => g.name}
        minWidth={560}
        columns={[
          {
            header: t('goals.name'),
            cell: (g) => (
              <Text ff="monospace" size="sm">
                {g.name}
              </Text>
            ),
          },
          {
            header: t('goals.kind'),
            cell: (g) => (
              <Badge variant={g.preset ? 'light' : 'outline'}>{t(g.preset ? 'goals.preset' : 'goals.custom')}</Badge>
            ),
          },
          {
            header: t('goals.description'),
            cell: (g) => (g.preset ? t(`goals.presets.${g.name}`, { defaultValue: '' }) : (g.description ?? '')),
          },
          {
            header: t('links.createdAt'),
            cell: (g) => (g.createdAt ? new Date(g.createdAt).toLocaleDateString(i18n.language) : '—'),
          },
          {
            cell: (g) =>
              !g.preset && (
                <DeleteButton
                  name={g.name}
                  confirm={t('goals.removeConfirm', { name: g.name })}
                  onDelete={() => remove.mutate(g.name)}
                  disabled={!canWrite}
                />
              ),
          },
        ]}
      />
      {types.data && own.length === 0 && <Text c="dimmed">{t('goals.noneOwn')}</Text>}
    </Screen>
  );
}
