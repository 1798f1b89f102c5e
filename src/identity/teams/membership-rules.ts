import type { Actor } from '@app/common/actor.js';
import { ConflictError, ForbiddenError } from '@app/common/errors.js';
import type { Role } from '@app/common/permission.js';

/**
 * Roles that members and invitations can be given. `super_admin` is never assigned directly:
 * the team has exactly one, the owner, and it changes hands only by an ownership transfer.
 */
export const ASSIGNABLE_ROLES = ['admin', 'operator', 'auditor', 'viewer'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

/** Roles only the owner (`super_admin`) may grant or take away (docs/security.md "Team management"). */
const OWNER_GRANTED: ReadonlySet<Role> = new Set(['admin', 'super_admin']);

/**
 * Rules of team management beyond the `manage team` permission (docs/security.md):
 * only `super_admin` grants or takes away `admin` (a role change from or to it, an invitation
 * with it, removing an admin, revoking an admin or owner-level client).
 * @throws ForbiddenError (403) when `actor` is not `super_admin` and a role involved is admin or above.
 */
export function assertMayHandleRoles(actor: Actor, ...roles: Role[]): void {
  if (actor.role !== 'super_admin' && roles.some((role) => OWNER_GRANTED.has(role))) {
    throw new ForbiddenError('Only the team owner (super_admin) grants or takes away the admin role');
  }
}

/**
 * Nobody changes their own membership (role or removal): an integration client acts for the
 * member who created it, so it cannot change that member either.
 * @throws ForbiddenError (403).
 */
export function assertNotSelf(actor: Actor, userId: string): void {
  if (actor.userId === userId) throw new ForbiddenError('You cannot change your own membership');
}

/**
 * The owner is neither demoted nor removed except through an ownership transfer.
 * @throws ConflictError (409 `owner_protected`).
 */
export function assertNotOwner(role: Role): void {
  if (role === 'super_admin') {
    throw new ConflictError(
      'owner_protected',
      'The owner cannot be demoted or removed; transfer ownership first (POST /api/team/ownership/transfer)',
    );
  }
}
