// The signed-in person's console sessions: which browser on which system, the address it signed
// in from, when, and its last use; this one marked. Ending another signs that browser out; ending
// this one signs the person out here.
import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { api, type ConsoleSession } from '../api';
import { DataTable } from '../components/DataTable';
import { ConfirmButton } from '../components/DeleteButton';
import { useNotice } from '../components/Notice';
import { Screen } from '../components/Screen';
import { useAction } from '../components/use-action';

/** The user-agent parser's names where people know another one. */
const OS_NAMES: Record<string, string> = { 'Mac OS': 'macOS', 'Chromium OS': 'ChromeOS' };

/** "Chrome on macOS (computer)", readable in either language. */
export function deviceName(device: ConsoleSession['device'], t: TFunction): string {
  if (!device || device.browser === 'Unknown') return t('sessions.unknownDevice');
  const os = OS_NAMES[device.os] ?? device.os;
  const name = device.os === 'Unknown' ? device.browser : t('sessions.deviceName', { browser: device.browser, os });
  return `${name} (${t(`sessions.deviceType.${device.type}`)})`;
}

const KEY = ['me', 'sessions'];

export default function Sessions({ onSignedOut }: { onSignedOut: () => void }) {
  const { t, i18n } = useTranslation();
  const sessions = useQuery({ queryKey: KEY, queryFn: () => api<ConsoleSession[]>('GET', '/me/sessions') });
  const { notify, noticeBox } = useNotice();
  const end = useAction({
    run: (s: ConsoleSession) => api('DELETE', `/me/sessions/${s.id}`),
    after: (_, s) => s.current && onSignedOut(),
    done: () => t('sessions.ended'),
    notify,
    invalidates: KEY,
  });
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language);

  return (
    <Screen heading={t('sessions.heading')} intro={t('sessions.intro')} notice={noticeBox}>
      <DataTable
        query={sessions}
        empty={t('sessions.empty')}
        minWidth={640}
        testId="sessions"
        columns={[
          {
            header: t('sessions.device'),
            cell: (s) => (
              <>
                {deviceName(s.device, t)}
                {s.current && (
                  <Badge ml="xs" variant="filled">
                    {t('sessions.current')}
                  </Badge>
                )}
              </>
            ),
          },
          { header: t('sessions.address'), cell: (s) => s.ip ?? '', wrap: true },
          { header: t('sessions.signedIn'), cell: (s) => when(s.createdAt) },
          { header: t('sessions.lastUsed'), cell: (s) => when(s.lastSeenAt) },
          {
            cell: (s) => (
              <ConfirmButton
                label={t('sessions.end')}
                name={`${deviceName(s.device, t)}${s.ip ? `, ${s.ip}` : ''}`}
                confirm={
                  s.current
                    ? t('sessions.endCurrentConfirm')
                    : t('sessions.endConfirm', { device: deviceName(s.device, t) })
                }
                onConfirm={() => end.mutate(s)}
                loading={end.isPending && end.variables?.id === s.id}
              />
            ),
          },
        ]}
      />
    </Screen>
  );
}
