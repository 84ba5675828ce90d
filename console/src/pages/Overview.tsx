// The organization at a glance: its plan and what it includes, Service API calls this month
// against the quota, the add-ons, the member's role and what that role may do.
import { Badge, Card, Group, List, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { QueryStatus } from '../components/QueryStatus';
import { api, type Membership, type Usage } from '../api';

function UsageCard({ orgId }: { orgId: number }) {
  const { t, i18n } = useTranslation();
  const usage = useQuery({
    queryKey: ['org', orgId, 'usage'],
    queryFn: () => api<Usage>('GET', `/organizations/${orgId}/usage`),
  });
  const n = (value: number) => value.toLocaleString(i18n.language);
  const u = usage.data;
  const share = u && u.monthlyQuota > 0 ? Math.min(100, (u.callsThisMonth / u.monthlyQuota) * 100) : 0;
  return (
    <Card withBorder>
      <Title order={3} size="h5" mb="xs">
        {t('overview.usage')}
      </Title>
      <QueryStatus query={usage} />
      {u && (
        <Stack gap="xs">
          <Group justify="space-between">
            <Text c="dimmed">{t('overview.plan')}</Text>
            <Badge size="lg" variant="light" data-testid="plan">
              {u.plan}
            </Badge>
          </Group>
          <Text data-testid="calls">
            {t('overview.calls', { calls: n(u.callsThisMonth), quota: n(u.monthlyQuota) })}
          </Text>
          <Progress
            value={share}
            color={share >= 90 ? 'red' : share >= 75 ? 'yellow' : 'blue'}
            aria-label={t('overview.quotaUsed', { percent: share.toFixed(1) })}
          />
          <Text size="sm" c="dimmed">
            {t('overview.remaining', {
              remaining: n(u.remaining),
              date: new Date(u.resetsAt).toLocaleDateString(i18n.language, { timeZone: 'UTC' }),
            })}
          </Text>
          <Group gap="xs" mt="xs">
            <Text size="sm" c="dimmed">
              {t('overview.addOns')}
            </Text>
            {(['userJourney', 'revenueAnalytics'] as const).map((name) => (
              <Badge
                key={name}
                variant={u.addOns[name] ? 'light' : 'outline'}
                color={u.addOns[name] ? 'green' : 'gray'}
              >
                {t(`overview.addOn.${name}`)}: {t(u.addOns[name] ? 'overview.on' : 'overview.off')}
              </Badge>
            ))}
          </Group>
          <List size="sm" spacing={2}>
            <List.Item>{t(u.features.qrCodes ? 'overview.qrYes' : 'overview.qrNo')}</List.Item>
            <List.Item>{t('overview.retention', { days: n(u.features.dataRetentionDays) })}</List.Item>
          </List>
        </Stack>
      )}
    </Card>
  );
}

export default function Overview({ membership }: { membership: Membership }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={2}>{t('overview.heading', { name: membership.organizationName })}</Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <UsageCard orgId={membership.organizationId} />
        <Card withBorder>
          <Group justify="space-between" mb="xs">
            <Title order={3} size="h5">
              {t('overview.canDo')}
            </Title>
            <Badge size="lg" data-testid="role">
              {t(`roles.${membership.role}`)}
            </Badge>
          </Group>
          <List size="sm" spacing={4}>
            {membership.permissions.map((p) => (
              <List.Item key={p}>{t(`permissions.${p}`)}</List.Item>
            ))}
          </List>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
