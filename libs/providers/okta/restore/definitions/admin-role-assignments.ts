import type { LiveResource } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { type Assignee, assigneeOf, ROLE_TARGET_KINDS } from '@libs/providers/okta/okta-role-targets.js';
import {
  createdId,
  idParts,
  pick,
  type RestoreDefinition,
  type WriteContext,
} from '@libs/providers/okta/restore/restore-definition.js';

/** Standard roles Okta limits with targets (groups or apps): admin_role_target records. */
const TARGETED_ROLES = Object.keys(ROLE_TARGET_KINDS);

const LAST_SUPER_ADMIN = "The org's last super admin assignment: a prune never removes it (lockout guard)";

/**
 * What an assignment grants, its natural key: `<USER|GROUP>:<ownerId>:<type>`, and for a custom
 * role `:<roleId>:<resourceSetId>`. An owner holds a grant once, whatever the assignment's id;
 * the role type is the third part (the lockout guard reads it from `LiveResource.key`).
 */
function grantOf(ownerId: string, data: OktaObject): string | null {
  if (typeof data.type !== 'string') return null;
  const custom = data.type === 'CUSTOM' ? [String(data.role), String(data['resource-set'])] : [];
  return [assigneeOf(data), ownerId, data.type, ...custom].join(':');
}

/** The assignee kind and role type of a natural key made by `grantOf`, or null. */
function parseGrant(key: string | null): { assignee: string; type: string } | null {
  const [assignee, , type] = key?.split(':') ?? [];
  return assignee && type ? { assignee, type } : null;
}

/** assignRoleToUser / assignRoleToGroup and their list, for an owner. */
function rolesOf(assignee: Assignee, ownerId: string): { template: string; params: Record<string, string> } {
  return assignee === 'USER'
    ? { template: '/api/v1/users/{userId}/roles', params: { userId: ownerId } }
    : { template: '/api/v1/groups/{groupId}/roles', params: { groupId: ownerId } };
}

/** The assignment id of the grant the owner already holds in its own name, or undefined. */
async function heldGrant(record: ResourceRecord, context: WriteContext): Promise<string | undefined> {
  const [ownerId] = idParts(record.id);
  const assignee = assigneeOf(record.data);
  const wanted = grantOf(ownerId, record.data);
  // A user's list also shows the roles its groups hold (assignmentType GROUP): not its own.
  for await (const page of context.api.pages({ ...rolesOf(assignee, ownerId), signal: context.signal })) {
    const held = page.find((role) => assigneeOf(role) === assignee && grantOf(ownerId, role) === wanted);
    if (held) return createdId(held, 'a role assignment');
  }
  return undefined;
}

/**
 * Keeps at least one SUPER_ADMIN assignment: one held by a user when any user holds one now
 * (a group's may have no member who can sign in), else any.
 */
function guardSuperAdmins(deleting: readonly LiveResource[], remaining: readonly LiveResource[]) {
  const superAdmin = (resource: LiveResource) => parseGrant(resource.key)?.type === 'SUPER_ADMIN';
  const byUser = (resource: LiveResource) => parseGrant(resource.key)?.assignee === 'USER';
  const doomed = deleting.filter(superAdmin);
  const left = remaining.filter(superAdmin);
  const kept = left.some(byUser)
    ? undefined
    : (doomed.find(byUser) ?? (left.length === 0 ? doomed[0] : undefined));
  return new Map(kept ? [[kept.id, LAST_SUPER_ADMIN]] : []);
}

/**
 * Admin role assignments of users and groups (`<ownerId>:<assignmentId>`): standard roles by
 * `type`, custom roles by `role` and `resource-set` (assignRoleToUser / assignRoleToGroup, 201).
 * An assignment has nothing to change: a different grant is another assignment. Okta's ids of
 * standard user assignments are the same for every user (recorded `IFIFAX2BIRGUSTQ` for
 * APP_ADMIN) while others are not, so assignments are matched by what they grant, and a creation
 * first looks for the grant among the owner's roles: a custom role assignment is also a member of
 * its resource set binding (same id), which an earlier write of this restore may have added.
 */
export const adminRoleAssignment: RestoreDefinition = {
  writable: (data) => pick(data, ['type', 'role', 'resource-set']),
  naturalKey: (record) => grantOf(idParts(record.id)[0], record.data),
  notes: [
    `A re-created ${TARGETED_ROLES.join(', ')} assignment gets its targets (admin_role_target) right after it: Okta cannot grant a role with its targets in one request, so a scoped role applies to the whole org for the seconds until its targets are added`,
  ],
  async create(record, context) {
    const [ownerId] = idParts(record.id);
    const held = await heldGrant(record, context);
    if (held !== undefined) return { id: `${ownerId}:${held}` };
    const type = String(record.data.type);
    const answer = await context.api.write({
      method: 'POST',
      ...rolesOf(assigneeOf(record.data), ownerId),
      body: type === 'CUSTOM' ? pick(record.data, ['type', 'role', 'resource-set']) : { type },
      signal: context.signal,
    });
    const notes = TARGETED_ROLES.includes(type)
      ? [
          `Granted without targets, which Okta cannot take in the same request: ${type} applies to the whole org until the backup's targets are added (admin_role_target, next)`,
        ]
      : [];
    return { id: `${ownerId}:${createdId(answer, 'a role assignment')}`, notes };
  },
  async remove(live, context) {
    const [ownerId, roleAssignmentId] = idParts(live.id);
    const assignee = parseGrant(live.key)?.assignee;
    if (assignee !== 'USER' && assignee !== 'GROUP') throw new Error(`No assignee in the key of ${live.id}`);
    const { template, params } = rolesOf(assignee, ownerId);
    await context.api.write({
      method: 'DELETE',
      template: `${template}/{roleAssignmentId}`,
      params: { ...params, roleAssignmentId },
      okOn: [404],
      signal: context.signal,
    });
  },
  guardDeletions: guardSuperAdmins,
};
