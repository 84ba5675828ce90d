// Members of the organization: the list, invitation by email, role changes and removal. What the
// member's role does not allow is shown disabled; the server refuses it anyway.
import { Button, Group, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice, type NoticeState } from '../components/Notice';
import { QueryStatus } from '../components/QueryStatus';
import { FormCard } from '../components/FormCard';
import { api, type Member, type Membership, ROLES, type Role } from '../api';

export default function Members({ membership, userId }: { membership: Membership; userId: number }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const orgId = membership.organizationId;
  const key = ['org', orgId, 'members'];
  const members = useQuery({ queryKey: key, queryFn: () => api<Member[]>('GET', `/organizations/${orgId}/members`) });
  const canManage = membership.permissions.includes('members.manage');
  // Only owners hand out ownership.
  const roleChoices = ROLES.filter((r) => r !== 'owner' || membership.role === 'owner').map((r) => ({
    value: r,
    label: t(`roles.${r}`),
  }));
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('analyst');
  const [notice, setNotice] = useState<NoticeState | null>(null);

  const done = (text: string) => {
    setNotice({ ok: true, text });
    void queryClient.invalidateQueries({ queryKey: key });
  };
  const failed = (error: Error) => setNotice({ ok: false, text: error.message });

  const invite = useMutation({
    mutationFn: () => api<Member>('POST', `/organizations/${orgId}/members`, { email, role }),
    onSuccess: (m) => {
      setEmail('');
      done(t('members.invited', { email: m.email, role: t(`roles.${m.role}`) }));
    },
    onError: failed,
  });
  const change = useMutation({
    mutationFn: (v: { id: number; role: Role }) =>
      api('PUT', `/organizations/${orgId}/members/${v.id}`, { role: v.role }),
    onSuccess: () => done(t('members.roleChanged')),
    onError: failed,
  });
  const remove = useMutation({
    mutationFn: (id: number) => api('DELETE', `/organizations/${orgId}/members/${id}`),
    onSuccess: () => done(t('members.removed')),
    onError: failed,
  });

  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : t('members.never'));

  return (
    <Stack>
      <Title order={2}>{t('members.heading')}</Title>
      <Notice notice={notice} onClose={() => setNotice(null)} />
      <FormCard
        title={t('members.invite')}
        readOnly={!canManage && t('members.readOnly')}
        onSubmit={() => invite.mutate()}
      >
        <Group align="flex-end" wrap="wrap">
          <TextInput
            type="email"
            required
            label={t('members.email')}
            value={email}
            onChange={(e) => setEmail(e.currentTarget.value)}
            disabled={!canManage}
            w={280}
          />
          <Select
            label={t('members.role')}
            data={roleChoices}
            value={role}
            onChange={(v) => v && setRole(v as Role)}
            allowDeselect={false}
            disabled={!canManage}
            w={160}
          />
          <Button type="submit" disabled={!canManage} loading={invite.isPending}>
            {t('members.inviteButton')}
          </Button>
        </Group>
      </FormCard>
      <QueryStatus query={members} />
      {members.data && members.data.length === 0 && <Text c="dimmed">{t('members.empty')}</Text>}
      {members.data && members.data.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('members.email')}</Table.Th>
                <Table.Th>{t('members.name')}</Table.Th>
                <Table.Th>{t('members.role')}</Table.Th>
                <Table.Th>{t('members.lastLogin')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {members.data.map((m) => {
                const editable = canManage && (m.role !== 'owner' || membership.role === 'owner');
                return (
                  <Table.Tr key={m.id}>
                    <Table.Td>
                      {m.email}
                      {m.id === userId && (
                        <Text span c="dimmed" size="sm">
                          {' '}
                          ({t('members.you')})
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>{m.name ?? ''}</Table.Td>
                    <Table.Td>
                      <Select
                        aria-label={`${t('members.role')}: ${m.email}`}
                        data={editable ? roleChoices : [{ value: m.role, label: t(`roles.${m.role}`) }]}
                        value={m.role}
                        onChange={(v) => v && v !== m.role && change.mutate({ id: m.id, role: v as Role })}
                        allowDeselect={false}
                        disabled={!editable}
                        w={150}
                      />
                    </Table.Td>
                    <Table.Td>{date(m.lastLoginAt)}</Table.Td>
                    <Table.Td>
                      <Button
                        color="red"
                        variant="subtle"
                        size="xs"
                        disabled={!editable}
                        onClick={() =>
                          window.confirm(t('members.removeConfirm', { email: m.email })) && remove.mutate(m.id)
                        }
                      >
                        {t('members.remove')}
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
