/** A team role as the API names it (`GET /api/me`, `GET /api/team/members`). */
export type Role = 'super_admin' | 'admin' | 'operator' | 'auditor' | 'viewer';

/** Roles a member or an invitation can be given: `super_admin` changes hands by ownership transfer only. */
export type AssignableRole = Exclude<Role, 'super_admin'>;

const ASSIGNABLE: readonly AssignableRole[] = ['admin', 'operator', 'auditor', 'viewer'];

/** Roles only the owner grants or takes away (docs/security.md "Team management"). */
const OWNER_GRANTED: ReadonlySet<Role> = new Set(['admin', 'super_admin']);

/**
 * The roles `caller` may give a member or an invitation: the owner (`super_admin`) every
 * assignable role, anyone else those below admin (the API's `assertMayHandleRoles`, 403 otherwise).
 */
export function grantableRoles(caller: Role): AssignableRole[] {
  return caller === 'super_admin' ? [...ASSIGNABLE] : ASSIGNABLE.filter((role) => !OWNER_GRANTED.has(role));
}

/**
 * The roles `caller` may give an integration client: the owner any role, `super_admin` included;
 * anyone else those below admin (the API's `POST /api/team/clients` rules; a client never
 * outranks the member it acts for).
 */
export function clientRoles(caller: Role): Role[] {
  return caller === 'super_admin' ? ['super_admin', ...ASSIGNABLE] : grantableRoles(caller);
}

/**
 * True when `caller` (user `callerId`) may change or remove the membership of `member`: never
 * their own, never the owner's (transfer ownership instead), and an admin's only as the owner.
 */
export function mayChangeMember(
  caller: { role: Role; userId: string },
  member: { role: Role; user_id: string },
): boolean {
  if (member.user_id === caller.userId || member.role === 'super_admin') return false;
  return caller.role === 'super_admin' || !OWNER_GRANTED.has(member.role);
}

/** True when `caller` may revoke an invitation or a client of `role`: admin-level ones need the owner. */
export function mayHandleRole(caller: Role, role: Role): boolean {
  return caller === 'super_admin' || !OWNER_GRANTED.has(role);
}
