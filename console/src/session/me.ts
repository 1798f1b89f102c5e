import { useQuery } from '@tanstack/react-query';
import { api, unwrap, type Schemas } from '../api/client';

/** Who is signed in, their teams, and the current team's role and permissions (`GET /api/me`). */
export type Me = Schemas['Me'];
export type PermissionName = Schemas['MeCurrentTeam']['permissions'][number];

/** The signed-in person (TanStack Query key `['me']`); a 401 sends the console to sign-in. */
export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: () => unwrap(api().GET('/api/me')), staleTime: 60_000 });
}

/** True when the current team's role grants `permission`, as `/api/me` lists them. */
export function useCan(permission: PermissionName): boolean {
  const { data } = useMe();
  return data?.current_team.permissions.includes(permission) ?? false;
}
