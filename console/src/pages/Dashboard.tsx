// The organization's click dashboard: every link and campaign together.
import { Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Membership } from '../api';
import { DashboardView } from '../dashboard/DashboardView';

export default function Dashboard({ membership }: { membership: Membership }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={2}>{t('dashboard.heading', { name: membership.organizationName })}</Title>
      <DashboardView orgId={membership.organizationId} />
    </Stack>
  );
}
