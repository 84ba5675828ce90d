// One short URL's or campaign's statistics page, at /console/stats/{urls|campaigns}/{id}.
import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Membership } from '../api';
import { DashboardView } from '../dashboard/DashboardView';
import { statsTarget } from '../navigation';

export default function LinkStats({ membership }: { membership: Membership }) {
  const { t } = useTranslation();
  const target = statsTarget();
  if (!target) return <Alert color="gray">{t('dashboard.nothing')}</Alert>;
  return <DashboardView orgId={membership.organizationId} link={target} />;
}
