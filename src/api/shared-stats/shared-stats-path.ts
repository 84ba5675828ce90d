// Where a shared statistics page lives: on the service's own host (the operator-host rule keeps
// /console/ off customers' domains), under a path no link can take.
export const SHARED_STATS_ROUTE = '/console/shared/:token';

export const sharedStatsUrl = (publicBaseUrl: string, token: string) =>
  `${publicBaseUrl}/console/shared/${encodeURIComponent(token)}`;
