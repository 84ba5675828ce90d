// Goal types: the spec's presets and the organization's own, offered in the link editor. Adding
// and removing need links.write; a preset stays. Removing a type changes no link that uses it.
import { Badge, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormCard } from '../components/FormCard';
import { DeleteButton } from '../components/DeleteButton';
import { Notice, type NoticeState } from '../components/Notice';
import { DataTable } from '../components/DataTable';
import { useAction } from '../components/use-action';
import { api, fieldErrors, type GoalType, type Membership } from '../api';

export default function GoalTypes({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const orgId = membership.organizationId;
  const canWrite = membership.permissions.includes('links.write');
  const key = ['org', orgId, 'goal-types'];
  const types = useQuery({
    queryKey: key,
    queryFn: () => api<GoalType[]>('GET', `/organizations/${orgId}/goal-types`),
  });
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [notice, setNotice] = useState<NoticeState | null>(null);

  const add = useAction({
    run: () =>
      api<GoalType>('POST', `/organizations/${orgId}/goal-types`, {
        name: name.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
      }),
    after: () => {
      setName('');
      setDescription('');
    },
    done: (added) => t('goals.added', { name: added.name }),
    notify: setNotice,
    invalidates: key,
  });
  const remove = useAction({
    run: (goal: string) => api('DELETE', `/organizations/${orgId}/goal-types/${encodeURIComponent(goal)}`),
    done: (_, goal) => t('goals.removed', { name: goal }),
    notify: setNotice,
    invalidates: key,
  });
  const errors = fieldErrors(add.error);
  const own = types.data?.filter((g) => !g.preset) ?? [];

  return (
    <Stack>
      <Title order={2}>{t('goals.heading')}</Title>
      <Text c="dimmed" maw={720}>
        {t('goals.intro')}
      </Text>
      <Notice notice={notice} onClose={() => setNotice(null)} />
      <FormCard title={t('goals.add')} readOnly={!canWrite && t('links.readOnly')} onSubmit={() => add.mutate()}>
        <Group align="flex-start" wrap="wrap">
          <TextInput
            required
            label={t('goals.name')}
            placeholder="newsletterSignup"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={50}
            disabled={!canWrite}
            w={240}
            error={errors.name}
          />
          <TextInput
            label={t('goals.description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            maxLength={200}
            disabled={!canWrite}
            w={320}
            error={errors.description}
          />
          <Button type="submit" mt={24} disabled={!canWrite} loading={add.isPending}>
            {t('goals.addButton')}
          </Button>
        </Group>
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
    </Stack>
  );
}
