// Goal types: the spec's presets and the organization's own, offered in the link editor. Adding
// and removing need links.write; a preset stays. Removing a type changes no link that uses it.
import { Badge, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FormCard } from '../components/FormCard';
import { DeleteButton } from '../components/DeleteButton';
import { Notice, type NoticeState } from '../components/Notice';
import { QueryStatus } from '../components/QueryStatus';
import { api, fieldErrors, type GoalType, type Membership } from '../api';

export default function GoalTypes({ membership }: { membership: Membership }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
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

  const add = useMutation({
    mutationFn: () =>
      api<GoalType>('POST', `/organizations/${orgId}/goal-types`, {
        name: name.trim(),
        ...(description.trim() ? { description: description.trim() } : {}),
      }),
    onSuccess: (added) => {
      setName('');
      setDescription('');
      setNotice({ ok: true, text: t('goals.added', { name: added.name }) });
      void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error: Error) => setNotice({ ok: false, text: error.message }),
  });
  const remove = useMutation({
    mutationFn: (goal: string) => api('DELETE', `/organizations/${orgId}/goal-types/${encodeURIComponent(goal)}`),
    onSuccess: (_, goal) => {
      setNotice({ ok: true, text: t('goals.removed', { name: goal }) });
      void queryClient.invalidateQueries({ queryKey: key });
    },
    onError: (error: Error) => setNotice({ ok: false, text: error.message }),
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
      <QueryStatus query={types} />
      {types.data && (
        <Table.ScrollContainer minWidth={560}>
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('goals.name')}</Table.Th>
                <Table.Th>{t('goals.kind')}</Table.Th>
                <Table.Th>{t('goals.description')}</Table.Th>
                <Table.Th>{t('links.createdAt')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {types.data.map((g) => (
                <Table.Tr key={g.name}>
                  <Table.Td>
                    <Text ff="monospace" size="sm">
                      {g.name}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Badge variant={g.preset ? 'light' : 'outline'}>
                      {t(g.preset ? 'goals.preset' : 'goals.custom')}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {g.preset ? t(`goals.presets.${g.name}`, { defaultValue: '' }) : (g.description ?? '')}
                  </Table.Td>
                  <Table.Td>{g.createdAt ? new Date(g.createdAt).toLocaleDateString(i18n.language) : '—'}</Table.Td>
                  <Table.Td>
                    {!g.preset && (
                      <DeleteButton
                        name={g.name}
                        confirm={t('goals.removeConfirm', { name: g.name })}
                        onDelete={() => remove.mutate(g.name)}
                        disabled={!canWrite}
                      />
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {types.data && own.length === 0 && <Text c="dimmed">{t('goals.noneOwn')}</Text>}
    </Stack>
  );
}
