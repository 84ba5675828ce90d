// A screen's list of the organization's things: the query, and the key its changes reload.
import { type QueryKey, type UseQueryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../api';

export function useOrgList<T>(
  orgId: number,
  name: string,
  path: string,
  options: Pick<UseQueryOptions<T, Error, T, QueryKey>, 'enabled' | 'refetchInterval'> = {},
) {
  const key = ['org', orgId, name];
  const list = useQuery({ queryKey: key, queryFn: () => api<T>('GET', `/organizations/${orgId}/${path}`), ...options });
  return { key, list };
}
