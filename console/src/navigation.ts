// The console's screens as paths under /console/, with history navigation (no router library for
// a handful of screens), and a link's statistics at /console/stats/{urls|campaigns}/{id}.
// Unknown paths show the overview.
import { useEffect, useState } from 'react';

export type Screen = 'overview' | 'dashboard' | 'linkStats' | 'links' | 'campaigns' | 'goals' | 'domains' | 'apps' | 'keys' | 'webhooks' | 'members' | 'audit';

const PATHS: Record<Screen, string> = {
  overview: '/console/',
  dashboard: '/console/dashboard',
  linkStats: '/console/stats',
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

const STATS = /^\/console\/stats\/(urls|campaigns)\/([1-9][0-9]{0,15})\/?$/;

const screenOf = (pathname: string): Screen =>
  STATS.test(pathname) ? 'linkStats' : (Object.entries(PATHS).find(([, path]) => path === pathname.replace(/\/+$/, '') || path === pathname)?.[0] as Screen | undefined) ?? 'overview';

export const pathOf = (screen: Screen): string => PATHS[screen];

/** The statistics page of a short URL or campaign. */
export const pathOfStats = (type: 'url' | 'campaign', id: number): string => `/console/stats/${type === 'url' ? 'urls' : 'campaigns'}/${id}`;

/** The link a statistics path names, if the current path is one. */
export function statsTarget(pathname = window.location.pathname): { type: 'url' | 'campaign'; id: number } | null {
  const m = STATS.exec(pathname);
  return m ? { type: m[1] === 'urls' ? 'url' : 'campaign', id: Number(m[2]) } : null;
}

export function navigate(screen: Screen | string): void {
  window.history.pushState(null, '', screen in PATHS ? PATHS[screen as Screen] : screen);
  window.dispatchEvent(new PopStateEvent('popstate'));
}

/** The current screen and path; every move re-renders, from one link's statistics to another's too. */
export function useScreen(): { screen: Screen; path: string } {
  const [path, setPath] = useState(() => window.location.pathname);
  useEffect(() => {
    const onPop = () => setPath(window.location.pathname);
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  return { screen: screenOf(path), path };
}
