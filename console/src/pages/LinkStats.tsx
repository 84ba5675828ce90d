// One short URL's, campaign's or mobile app's statistics page, at /console/stats/{urls|campaigns|apps}/{id}.
import { Alert } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Membership } from '../api';
import { AppDashboard } from '../dashboard/AppDashboard';
import { DashboardView } from '../dashboard/DashboardView';
import { statsTarget } from '../navigation';

export default function LinkStats({ membership }: { membership: Membership }) {
  const { t } = useTranslation();
  const target = statsTarget();
  if (!target) return <Alert color="gray">{t('dashboard.nothing')}</Alert>;
  if (target.type === 'app') return <AppDashboard orgId={membership.organizationId} appId={target.id} />;
  return (
    <DashboardView
      orgId={membership.organizationId}
      link={{ type: target.type, id: target.id }}
      canShare={membership.permissions.includes('links.write')}
    />
  );
}
