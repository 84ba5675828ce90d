// The console's screens as paths under /console/, with history navigation (no router library for
// a handful of screens), and statistics pages at /console/stats/{urls|campaigns|apps}/{id}.
// Unknown paths show the overview.
import { useEffect, useState } from 'react';

export type Screen =
  | 'overview'
  | 'dashboard'
  | 'reports'
  | 'journey'
  | 'linkStats'
  | 'links'
  | 'campaigns'
  | 'goals'
  | 'tags'
  | 'imports'
  | 'domains'
  | 'apps'
  | 'keys'
  | 'webhooks'
  | 'members'
  | 'audit'
  | 'sessions';

const PATHS: Record<Screen, string> = {
  overview: '/console/',
  dashboard: '/console/dashboard',
  reports: '/console/reports',
  journey: '/console/journey',
  linkStats: '/console/stats',
  links: '/console/links',
  campaigns: '/console/campaigns',
  goals: '/console/goal-types',
  tags: '/console/tags',
  imports: '/console/imports',
  domains: '/console/domains',
  apps: '/console/apps',
  keys: '/console/api-keys',
  webhooks: '/console/webhooks',
  members: '/console/members',
  audit: '/console/audit',
  sessions: '/console/sessions',
};

const STATS = /^\/console\/stats\/(urls|campaigns|apps)\/([1-9][0-9]{0,15})\/?$/;

const screenOf = (pathname: string): Screen =>
  STATS.test(pathname)
    ? 'linkStats'
    : ((Object.entries(PATHS).find(([, path]) => path === pathname.replace(/\/+$/, '') || path === pathname)?.[0] as
        | Screen
        | undefined) ?? 'overview');

export const pathOf = (screen: Screen): string => PATHS[screen];

export type StatsKind = 'url' | 'campaign' | 'app';
const SEGMENT: Record<StatsKind, string> = { url: 'urls', campaign: 'campaigns', app: 'apps' };

/** The statistics page of a short URL, campaign or mobile app. */
export const pathOfStats = (type: StatsKind, id: number): string => `/console/stats/${SEGMENT[type]}/${id}`;

/** What a statistics path names, if the current path is one. */
export function statsTarget(pathname = window.location.pathname): { type: StatsKind; id: number } | null {
  const m = STATS.exec(pathname);
  const type = m && (Object.entries(SEGMENT).find(([, segment]) => segment === m[1])?.[0] as StatsKind | undefined);
  return m && type ? { type, id: Number(m[2]) } : null;
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
