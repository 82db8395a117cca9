import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ApiError, get, onSessionExpired, refreshSession } from '../api/client';
import type { ApiData, User } from '../api/types';

export const meKey = ['me'] as const;
export const orgKey = ['organization'] as const;

/**
 * The signed-in user, or null when there is no session. `GET /auth/session` answers 200 either
 * way (docs/auth.md), so a signed-out page logs no 401; the session is renewed (`POST
 * /auth/refresh`) only when a refresh cookie was sent, then read again.
 */
export function useMe() {
  return useQuery({
    queryKey: meKey,
    queryFn: async (): Promise<User | null> => {
      try {
        const first = await get<ApiData<'getSession'>>('/auth/session', { noRefresh: true });
        if (first.user || !first.refreshable) return first.user;
        if (!(await refreshSession())) return null;
        return (await get<ApiData<'getSession'>>('/auth/session', { noRefresh: true })).user;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) return null;
        throw err;
      }
    },
    staleTime: 5 * 60_000,
  });
}

/** The caller's organization, or null while onboarding is needed (403 ONBOARDING_REQUIRED). */
export function useOrganization(enabled = true) {
  return useQuery({
    queryKey: orgKey,
    enabled,
    queryFn: async () => {
      try {
        return (await get<ApiData<'getMyOrganization'>>('/organizations/me')).organization;
      } catch (err) {
        if (err instanceof ApiError && err.code === 'ONBOARDING_REQUIRED') return null;
        throw err;
      }
    },
    staleTime: 5 * 60_000,
  });
}

/** When a refresh fails anywhere, forget the user: the guarded routes then show sign-in. */
export function useSessionExpiry() {
  const qc = useQueryClient();
  useEffect(
    () =>
      onSessionExpired(() => {
        qc.setQueryData(meKey, null);
      }),
    [qc],
  );
}

/** After sign-in, sign-out or onboarding: everything cached belongs to the previous state. */
export async function resetSession(qc: ReturnType<typeof useQueryClient>, user: User | null) {
  qc.removeQueries({ predicate: (q) => q.queryKey[0] !== meKey[0] });
  if (user) qc.setQueryData(meKey, user);
  else qc.setQueryData(meKey, null);
  await qc.invalidateQueries({ queryKey: meKey });
}
