import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';

/** Who is signed in, in which team, and what their role may do. */
export interface Me {
  role: string;
  permissions: string[];
}

const ROLE_KEY = 'idp-backup.role';

/** Remembers the role verify-code answered, until the API says who is signed in. */
export function rememberRole(role: string): void {
  sessionStorage.setItem(ROLE_KEY, role);
}

async function fetchMe(): Promise<Me> {
  // Proves the session (a 401 here sends the console to sign-in).
  await unwrap(api().GET('/api/connections'));
  const role = sessionStorage.getItem(ROLE_KEY) ?? 'viewer';
  return { role, permissions: PERMISSIONS_BY_ROLE[role] ?? [] };
}

const PERMISSIONS_BY_ROLE: Record<string, string[]> = {
  super_admin: ['view backups', 'run backups', 'manage connections', 'restore'],
  admin: ['view backups', 'run backups', 'manage connections', 'restore'],
  operator: ['view backups', 'run backups'],
  auditor: ['view backups'],
  viewer: ['view backups'],
};

/** The signed-in person (TanStack Query key `['me']`). */
export function useMe() {
  return useQuery({ queryKey: ['me'], queryFn: fetchMe, staleTime: 60_000 });
}

/** True when the signed-in role grants `permission` (names as in the API's 403 answers). */
export function useCan(permission: string): boolean {
  const { data } = useMe();
  return data?.permissions.includes(permission) ?? false;
}
