// Members of the organization: the list, invitation by email, role changes and removal; owners see
// a member's console sessions and sign them out. What the member's role does not allow is shown
// disabled; the server refuses it anyway.
import { Button, Group, Modal, Select, Text, TextInput } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotice } from '../components/Notice';
import { DataTable } from '../components/DataTable';
import { ConfirmButton } from '../components/DeleteButton';
import { useFields } from '../components/use-fields';
import { useOrgList } from '../components/use-org-list';
import { useAction } from '../components/use-action';
import { FormCard } from '../components/FormCard';
import { Screen } from '../components/Screen';
import { api, type ConsoleSession, type Member, type Membership, ROLES, type Role } from '../api';
import { deviceName } from './Sessions';

/** An owner's look at a member's sessions: device, address, when signed in and last used; and ending them all. */
function MemberSessions({
  orgId,
  member,
  onClose,
  endAll,
}: {
  orgId: number;
  member: Member;
  onClose: () => void;
  /** Ends every session of the member (asked first); the list refreshes, empty. */
  endAll: { run: () => void; pending: boolean };
}) {
  const { t, i18n } = useTranslation();
  const sessions = useQuery({
    queryKey: ['org', orgId, 'members', member.id, 'sessions'],
    queryFn: () => api<ConsoleSession[]>('GET', `/organizations/${orgId}/members/${member.id}/sessions`),
  });
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={t('members.sessionsTitle', { email: member.email })}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <DataTable
        query={sessions}
        empty={t('members.noSessions')}
        minWidth={560}
        columns={[
          { header: t('sessions.device'), cell: (s) => deviceName(s.device, t) },
          { header: t('sessions.address'), cell: (s) => s.ip ?? '', wrap: true },
          { header: t('sessions.signedIn'), cell: (s) => when(s.createdAt) },
          { header: t('sessions.lastUsed'), cell: (s) => when(s.lastSeenAt) },
        ]}
      />
      <Group justify="flex-end" mt="md">
        <ConfirmButton
          label={t('members.endAllSessions')}
          variant="light"
          size="sm"
          red={false}
          disabled={!sessions.data?.length}
          loading={endAll.pending}
          confirm={t('members.endSessionsConfirm', { email: member.email })}
          onConfirm={endAll.run}
        />
      </Group>
    </Modal>
  );
}

export default function Members({ membership, userId }: { membership: Membership; userId: number }) {
  const { t, i18n } = useTranslation();
  const orgId = membership.organizationId;
  const { key, list: members } = useOrgList<Member[]>(orgId, 'members', 'members');
  const canManage = membership.permissions.includes('members.manage');
  // Only owners hand out ownership.
  const roleChoices = ROLES.filter((r) => r !== 'owner' || membership.role === 'owner').map((r) => ({
    value: r,
    label: t(`roles.${r}`),
  }));
  const { form, field, reset } = useFields({ email: '' }, !canManage);
  const [role, setRole] = useState<Role>('analyst');
  const { notify, noticeBox } = useNotice();
  const [sessionsOf, setSessionsOf] = useState<Member | null>(null);

  const invite = useAction({
    run: () => api<Member>('POST', `/organizations/${orgId}/members`, { email: form.email, role }),
    after: reset,
    done: (m) => t('members.invited', { email: m.email, role: t(`roles.${m.role}`) }),
    notify,
    invalidates: key,
  });
  const change = useAction({
    run: (v: { id: number; role: Role }) => api('PUT', `/organizations/${orgId}/members/${v.id}`, { role: v.role }),
    done: () => t('members.roleChanged'),
    notify,
    invalidates: key,
  });
  const remove = useAction({
    run: (id: number) => api('DELETE', `/organizations/${orgId}/members/${id}`),
    done: () => t('members.removed'),
    notify,
    invalidates: key,
  });
  const endSessions = useAction({
    run: (m: Member) => api<{ ended: number }>('DELETE', `/organizations/${orgId}/members/${m.id}/sessions`),
    done: (r, m) => t('members.sessionsEnded', { email: m.email, count: r.ended }),
    notify,
    invalidates: ['org', orgId, 'members'],
  });
  // Owners only; one's own sessions end from the sessions screen or "sign out everywhere".
  const canEndSessions = (m: Member) => membership.permissions.includes('sessions.manage') && m.id !== userId;
  /** Owners are changed by owners only. */
  const editable = (m: Member) => canManage && (m.role !== 'owner' || membership.role === 'owner');

  const date = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : t('members.never'));

  return (
    <Screen heading={t('members.heading')} notice={noticeBox}>
      <FormCard
        title={t('members.invite')}
        readOnly={!canManage && t('members.readOnly')}
        action={invite}
        submit={{ label: t('members.inviteButton') }}
      >
        <TextInput type="email" required label={t('members.email')} w={280} {...field('email')} />
        <Select
          label={t('members.role')}
          data={roleChoices}
          value={role}
          onChange={(v) => v && setRole(v as Role)}
          allowDeselect={false}
          disabled={!canManage}
          w={160}
        />
      </FormCard>
      <DataTable
        query={members}
        empty={t('members.empty')}
        minWidth={640}
        columns={[
          {
            header: t('members.email'),
            cell: (m) => (
              <>
                {m.email}
                {m.id === userId && (
                  <Text span c="dimmed" size="sm">
                    {' '}
                    ({t('members.you')})
                  </Text>
                )}
              </>
            ),
          },
          { header: t('members.name'), cell: (m) => m.name ?? '' },
          {
            header: t('members.role'),
            cell: (m) => (
              <Select
                aria-label={`${t('members.role')}: ${m.email}`}
                data={editable(m) ? roleChoices : [{ value: m.role, label: t(`roles.${m.role}`) }]}
                value={m.role}
                onChange={(v) => v && v !== m.role && change.mutate({ id: m.id, role: v as Role })}
                allowDeselect={false}
                disabled={!editable(m)}
                w={150}
              />
            ),
          },
          { header: t('members.lastLogin'), cell: (m) => date(m.lastLoginAt) },
          {
            cell: (m) => (
              <Button
                variant="light"
                size="xs"
                aria-label={`${t('members.sessions')}: ${m.email}`}
                disabled={!canEndSessions(m)}
                onClick={() => setSessionsOf(m)}
              >
                {t('members.sessions')}
              </Button>
            ),
          },
          {
            cell: (m) => (
              <ConfirmButton
                label={t('members.endSessions')}
                name={m.email}
                red={false}
                disabled={!canEndSessions(m)}
                confirm={t('members.endSessionsConfirm', { email: m.email })}
                onConfirm={() => endSessions.mutate(m)}
                loading={endSessions.isPending && endSessions.variables?.id === m.id}
              />
            ),
          },
          {
            cell: (m) => (
              <ConfirmButton
                label={t('members.remove')}
                disabled={!editable(m)}
                confirm={t('members.removeConfirm', { email: m.email })}
                onConfirm={() => remove.mutate(m.id)}
              />
            ),
          },
        ]}
      />
      {sessionsOf && (
        <MemberSessions
          orgId={orgId}
          member={sessionsOf}
          onClose={() => setSessionsOf(null)}
          endAll={{
            run: () => endSessions.mutate(sessionsOf),
            pending: endSessions.isPending && endSessions.variables?.id === sessionsOf.id,
          }}
        />
      )}
    </Screen>
  );
}
