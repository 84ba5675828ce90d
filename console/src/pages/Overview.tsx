// The organization at a glance: its plan, the member's role, and what that role may do.
import { Badge, Card, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Membership } from '../api';

export default function Overview({ membership }: { membership: Membership }) {
  const { t } = useTranslation();
  return (
    <Stack>
      <Title order={2}>{t('overview.heading', { name: membership.organizationName })}</Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Card withBorder>
          <Group justify="space-between">
            <Text c="dimmed">{t('overview.plan')}</Text>
            <Badge size="lg" variant="light">{membership.plan}</Badge>
          </Group>
          <Group justify="space-between" mt="md">
            <Text c="dimmed">{t('overview.yourRole')}</Text>
            <Badge size="lg" data-testid="role">{t(`roles.${membership.role}`)}</Badge>
          </Group>
        </Card>
        <Card withBorder>
          <Title order={3} size="h5" mb="xs">{t('overview.canDo')}</Title>
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
