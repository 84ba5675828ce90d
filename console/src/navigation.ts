// The console's screens as paths under /console/, with history navigation (no router library for
// a handful of screens). Unknown paths show the overview.
import { useEffect, useState } from 'react';

export type Screen = 'overview' | 'links' | 'campaigns' | 'goals' | 'domains' | 'apps' | 'keys' | 'webhooks' | 'members' | 'audit';

const PATHS: Record<Screen, string> = {
  overview: '/console/',
  links: '/console/links',
  campaigns: '/console/campaigns',
  goals: '/console/goal-types',
  domains: '/console/domains',
  apps: '/console/apps',
  keys: '/console/api-keys',
  webhooks: '/console/webhooks',
  members: '/console/members',
  audit: '/console/audit',
};

const screenOf = (pathname: string): Screen =>
  (Object.entries(PATHS).find(([, path]) => path === pathname.replace(/\/+$/, '') || path === pathname)?.[0] as Screen | undefined) ?? 'overview';

export const pathOf = (screen: Screen): string => PATHS[screen];

export function navigate(screen: Screen): void {
  window.history.pushState(null, '', PATHS[screen]);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

export function useScreen(): Screen {
  const [screen, setScreen] = useState(() => screenOf(window.location.pathname));
  useEffect(() => {
    const onPop = () => setScreen(screenOf(window.location.pathname));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  return screen;
}
