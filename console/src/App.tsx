// The console's frame: the session (signed out → the sign-in page), the organization switcher,
// language, light or dark, sign-out, and the screen of the current path. Screens load on demand.
import {
  Alert,
  AppShell,
  Burger,
  Button,
  Center,
  Group,
  Loader,
  NavLink,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, api, type Session, setCsrfToken } from './api';
import { ThemeSwitch } from './components/ThemeSwitch';
import { navigate, pathOf, type Screen, useScreen } from './navigation';

const Overview = lazy(() => import('./pages/Overview'));
const Dashboard = lazy(() => import('./pages/Dashboard'));
const Journey = lazy(() => import('./pages/Journey'));
const LinkStats = lazy(() => import('./pages/LinkStats'));
const Links = lazy(() => import('./pages/Links'));
const ApiKeys = lazy(() => import('./pages/ApiKeys'));
const Apps = lazy(() => import('./pages/Apps'));
const Campaigns = lazy(() => import('./pages/Campaigns'));
const Domains = lazy(() => import('./pages/Domains'));
const Members = lazy(() => import('./pages/Members'));
const AuditLog = lazy(() => import('./pages/AuditLog'));
const GoalTypes = lazy(() => import('./pages/GoalTypes'));
const Reports = lazy(() => import('./pages/Reports'));
const Tags = lazy(() => import('./pages/Tags'));
const ImportJobs = lazy(() => import('./pages/ImportJobs'));
const Webhooks = lazy(() => import('./pages/Webhooks'));
const Sessions = lazy(() => import('./pages/Sessions'));

const ORG_KEY = 'signpost.organization';

function signInPage(): void {
  window.location.assign(`/console/sign-in?lang=${document.documentElement.lang}`);
}

export function App() {
  const { t, i18n } = useTranslation();
  const session = useQuery({ queryKey: ['session'], queryFn: () => api<Session>('GET', '/session') });
  const [orgId, setOrgId] = useState<number | null>(() => Number(localStorage.getItem(ORG_KEY)) || null);
  const [opened, { toggle, close }] = useDisclosure();
  const { screen, path } = useScreen();
  const queryClient = useQueryClient();

  useEffect(() => {
    if (session.error instanceof ApiError && session.error.status === 401) signInPage();
    if (session.data) setCsrfToken(session.data.csrfToken);
  }, [session.data, session.error]);

  const signOut = useMutation({
    mutationFn: (everywhere: boolean) => api('POST', everywhere ? '/sign-out-everywhere' : '/sign-out'),
    onSettled: signInPage,
  });
  const language = useMutation({
    mutationFn: (lang: 'ko' | 'en') => api('PUT', '/me/language', { language: lang }),
    onMutate: (lang) => {
      void i18n.changeLanguage(lang);
      document.documentElement.lang = lang;
    },
  });

  if (session.isPending || (session.error instanceof ApiError && session.error.status === 401)) {
    return (
      <Center h="100vh" role="status">
        <Loader aria-label={t('loading')} />
      </Center>
    );
  }
  if (session.error || !session.data) {
    return (
      <Center h="100vh" p="md">
        <Alert color="red" title={t('loadFailed')} role="alert">
          <Text mb="sm">{session.error?.message}</Text>
          <Button onClick={() => void session.refetch()}>{t('retry')}</Button>
        </Alert>
      </Center>
    );
  }

  const { user, memberships } = session.data;
  const membership = memberships.find((m) => m.organizationId === orgId) ?? memberships[0];
  const choose = (value: string | null) => {
    if (!value) return;
    localStorage.setItem(ORG_KEY, value);
    setOrgId(Number(value));
    void queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] === 'org' });
  };
  const go = (target: Screen) => {
    navigate(target);
    close();
  };

  return (
    <AppShell
      header={{ height: 60 }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t('organization')} />
            <Title order={1} size="h4">
              {t('title')}
            </Title>
          </Group>
          <Group wrap="nowrap" gap="sm">
            {memberships.length > 0 && (
              <Select
                aria-label={t('organization')}
                data={memberships.map((m) => ({ value: String(m.organizationId), label: m.organizationName }))}
                value={membership ? String(membership.organizationId) : null}
                onChange={choose}
                allowDeselect={false}
                w={200}
                visibleFrom="xs"
              />
            )}
            <SegmentedControl
              aria-label={t('language')}
              size="xs"
              value={i18n.language === 'en' ? 'en' : 'ko'}
              onChange={(value) => language.mutate(value as 'ko' | 'en')}
              data={[
                { value: 'ko', label: '한국어' },
                { value: 'en', label: 'English' },
              ]}
            />
            <ThemeSwitch />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="md">
        {/* The screens scroll when they outgrow the window; who is signed in and sign-out stay below. */}
        <AppShell.Section grow component={ScrollArea} mb="sm">
          <Stack gap={4} component="nav">
            {(
              [
                'overview',
                'dashboard',
                'reports',
                'journey',
                'links',
                'campaigns',
                'tags',
                'imports',
                'goals',
                'domains',
                'apps',
                'keys',
                'webhooks',
                'members',
                'audit',
                'sessions',
              ] as const
            ).map((target) => (
              <NavLink
                key={target}
                href={pathOf(target)}
                label={t(`nav.${target}`)}
                active={screen === target}
                // Filled: the light variant's blue on pale blue falls short of AA contrast.
                variant="filled"
                aria-current={screen === target ? 'page' : undefined}
                onClick={(event) => {
                  event.preventDefault();
                  go(target);
                }}
              />
            ))}
          </Stack>
        </AppShell.Section>
        <AppShell.Section>
          <Stack gap="xs">
            <Text size="sm" c="dimmed">
              <span data-testid="user-email">{user.email}</span>
            </Text>
            <Button
              variant="light"
              onClick={() => signOut.mutate(false)}
              loading={signOut.isPending && signOut.variables === false}
            >
              {t('signOut')}
            </Button>
            <Button variant="subtle" size="xs" onClick={() => signOut.mutate(true)}>
              {t('signOutEverywhere')}
            </Button>
          </Stack>
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        {/* The person's own sessions belong to no organization: there even without one. */}
        {screen === 'sessions' ? (
          <Suspense fallback={<Loader aria-label={t('loading')} />}>
            <Sessions onSignedOut={signInPage} />
          </Suspense>
        ) : membership ? (
          <Suspense fallback={<Loader aria-label={t('loading')} />}>
            {screen === 'overview' && <Overview membership={membership} />}
            {screen === 'dashboard' && <Dashboard membership={membership} />}
            {screen === 'journey' && <Journey membership={membership} />}
            {screen === 'linkStats' && <LinkStats key={path} membership={membership} />}
            {screen === 'links' && <Links membership={membership} />}
            {screen === 'campaigns' && <Campaigns membership={membership} />}
            {screen === 'goals' && <GoalTypes membership={membership} />}
            {screen === 'reports' && <Reports membership={membership} />}
            {screen === 'tags' && <Tags membership={membership} />}
            {screen === 'imports' && <ImportJobs membership={membership} />}
            {screen === 'webhooks' && <Webhooks membership={membership} />}
            {screen === 'domains' && <Domains membership={membership} />}
            {screen === 'apps' && <Apps membership={membership} />}
            {screen === 'keys' && <ApiKeys membership={membership} />}
            {screen === 'members' && <Members membership={membership} userId={user.id} />}
            {screen === 'audit' && <AuditLog membership={membership} />}
          </Suspense>
        ) : (
          <Alert color="gray">{t('noOrganizations')}</Alert>
        )}
      </AppShell.Main>
    </AppShell>
  );
}
