import { omit, pick } from '@libs/providers/kit/type-restore-definition.js';
import { ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { LiveResource } from '@libs/providers/provider-restore.js';
import type { EntraResourceType } from '@libs/providers/entra/entra-resource-catalog.js';
import type { GraphObject } from '@libs/providers/entra/graph-api-client.js';
import {
  createdId,
  ENTRA_SERVER_OWNED,
  type EntraRestoreDefinition,
  type EntraWriteContext,
} from '@libs/providers/entra/restore/entra-restore-definition.js';
import { graphCollection } from '@libs/providers/entra/restore/graph-collection.js';
import { keyed } from './natural-key.js';
import { ownServicePrincipalBecause } from './own-app.js';

/** The Global Administrator role's id, the same in every tenant (Microsoft Entra built-in roles). */
export const GLOBAL_ADMINISTRATOR = '62e90394-69f5-4237-9190-012177145e10';
const BASE = '/v1.0/roleManagement/directory';

const BUILT_IN = "A built-in role is Microsoft's, the same in every tenant: a backup holds custom roles only";
const LAST_GLOBAL_ADMIN =
  "The tenant's last active Global Administrator assignment: a prune never removes it (lockout guard)";
const INHERITED =
  'Held through a role-assignable group: it comes back with the group membership (group_membership), not on its own';
/**
 * A live just-in-time activation ("unifiedRoleAssignmentSchedule": `assignmentType` Activated, an
 * eligible principal's active assignment for a few hours): restoring it would make it standing.
 */
export const ACTIVATION =
  'A just-in-time activation of an eligible role (PIM, assignmentType Activated): it ends by itself, and restoring it would make it a standing assignment; its eligibility is restored instead';
const PIM_NOTES = [
  "Privileged Identity Management schedules are written as administrator schedule requests (adminAssign, adminUpdate, adminRemove) with the backup's schedule: Graph refuses one whose end has passed, and the requests' approvals, justifications and activation history are not restored",
  'An active assignment is both a role assignment and an assignment schedule: schedules are restored first, and the role assignment Graph makes with each is matched, never booked twice',
  "Each request is checked against the role's management policy (expiration, justification, MFA): the preview names a schedule the policy would refuse (RoleAssignmentRequestPolicyValidationFailed)",
];

/**
 * Properties of a role definition Graph sets ("unifiedRoleDefinition": `isBuiltIn`, `version`,
 * `inheritsPermissionsFrom` of built-ins). A custom role's `templateId` "can be set when isBuiltIn
 * is false", so a re-created role keeps the one it had (the same across tenants, where used).
 */
const ROLE_NOT_WRITTEN = [...ENTRA_SERVER_OWNED, 'isBuiltIn', 'version', 'inheritsPermissionsFrom'];

/** What an assignment or schedule grants, its natural key: `<roleDefinitionId>:<principalId>:<directoryScopeId>`. */
export function grantOf(data: GraphObject): string | null {
  const { roleDefinitionId, principalId } = data;
  if (typeof roleDefinitionId !== 'string' || typeof principalId !== 'string') return null;
  return [roleDefinitionId, principalId, String(data.directoryScopeId ?? '/')].join(':');
}

/** A natural key made by `grantOf`, read back (a deletion knows only the live resource). */
function parseGrant(key: string | null): {
  roleDefinitionId: string;
  principalId: string;
  directoryScopeId: string;
} {
  const [roleDefinitionId = '', principalId = '', directoryScopeId = '/'] = key?.split(':') ?? [];
  return { roleDefinitionId, principalId, directoryScopeId };
}

/**
 * Keeps one active Global Administrator assignment at the tenant's root when a prune would remove
 * the last: the first one being deleted, when none remains.
 */
function guardGlobalAdministrators(
  deleting: readonly LiveResource[],
  remaining: readonly LiveResource[],
): Map<string, string> {
  const globalAdmin = (resource: LiveResource) => {
    const grant = parseGrant(resource.key);
    return grant.roleDefinitionId === GLOBAL_ADMINISTRATOR && grant.directoryScopeId === '/';
  };
  if (remaining.some(globalAdmin)) return new Map();
  const kept = deleting.find(globalAdmin);
  return new Map(kept ? [[kept.id, LAST_GLOBAL_ADMIN]] : []);
}

/**
 * "Create unifiedRoleAssignment": the scope is a directory scope (`/`, `/administrativeUnits/{id}`)
 * or an application scope, one of them.
 */
function assignmentBody(writable: GraphObject): GraphObject {
  const body: GraphObject = pick(writable, ['principalId', 'roleDefinitionId']);
  if (writable.directoryScopeId != null) body.directoryScopeId = writable.directoryScopeId;
  else body.appScopeId = writable.appScopeId;
  if (writable.condition != null) body.condition = writable.condition;
  return body;
}

const REGRANTED =
  'The backed-up grant names a re-created principal or role: granted to it anew (the grant of the deleted one is left to a prune)';

/** A PIM schedule type and the requests that write its schedules. */
interface ScheduleKind {
  type: EntraResourceType;
  requests: string;
}

/**
 * A role eligibility or assignment schedule ("Create roleEligibilityScheduleRequests", "Create
 * roleAssignmentScheduleRequests"): created by an `adminAssign` request with the backup's
 * `scheduleInfo` (the new schedule's id is the request's `targetScheduleId`), updated by
 * `adminUpdate`, removed by `adminRemove`. Where Graph already holds the grant (an active
 * assignment made by restoring its role assignment is also a schedule), `RoleAssignmentExists` is
 * answered and the live schedule is taken.
 */
function pimSchedule(kind: ScheduleKind): EntraRestoreDefinition {
  const { naturalKey, find } = keyed(kind.type, (record) => grantOf(record.data));
  const request = async (action: string, data: GraphObject, context: EntraWriteContext) =>
    context.graph.write({
      method: 'POST',
      template: kind.requests,
      body: {
        action,
        ...pick(data, ['principalId', 'roleDefinitionId', 'directoryScopeId', 'appScopeId', 'scheduleInfo']),
        justification: 'Restored from a backup',
      },
      retryNotFound: true,
      signal: context.signal,
    });
  return {
    writable: (data) =>
      pick(data, ['principalId', 'roleDefinitionId', 'directoryScopeId', 'appScopeId', 'scheduleInfo']),
    naturalKey,
    managedBecause: (data) =>
      data.memberType === 'Inherited' ? INHERITED : data.assignmentType === 'Activated' ? ACTIVATION : null,
    protectedBecause: (data, own) => ownServicePrincipalBecause(data.principalId, own),
    async create(record, context) {
      try {
        const answer = await request('adminAssign', record.data, context);
        const target = answer?.targetScheduleId;
        return { id: typeof target === 'string' && target !== '' ? target : createdId(answer, kind.type) };
      } catch (error) {
        if (!(error instanceof ProviderRequestError && /RoleAssignmentExists/.test(error.message)))
          throw error;
        const live = await find(record, context);
        if (!live) throw error;
        return { id: live.id, notes: ['Graph held the grant already: the live schedule was kept'] };
      }
    },
    find,
    async update(record, live, context) {
      // Named a re-created principal or role: another grant, which the live schedule is not.
      if (live.key !== naturalKey!(record)) {
        await request('adminAssign', record.data, context);
        return [REGRANTED];
      }
      await request('adminUpdate', record.data, context);
      return [];
    },
    async remove(live, context) {
      try {
        await request('adminRemove', parseGrant(live.key), context);
      } catch (error) {
        // Gone already.
        if (!(error instanceof ProviderRequestError && /RoleAssignmentDoesNotExist/.test(error.message)))
          throw error;
      }
    },
    notes: PIM_NOTES,
  };
}

/**
 * Custom directory roles, role assignments and PIM schedules ("Create unifiedRoleDefinition",
 * "Update unifiedRoleDefinition", "Delete unifiedRoleDefinition", "Create unifiedRoleAssignment",
 * "Delete unifiedRoleAssignment", and the schedule requests). Built-in roles are not backed up.
 * Role assignments held by the connection's own service principal are never written, and a prune
 * keeps the tenant's last active Global Administrator.
 */
export function roleDefinitions(): Partial<Record<EntraResourceType, EntraRestoreDefinition>> {
  return {
    role_definition: graphCollection(
      { path: `${BASE}/roleDefinitions`, params: ['id'] },
      {
        writable: (data) => omit(data, ROLE_NOT_WRITTEN),
        ...keyed('role_definition', (record) =>
          typeof record.data.displayName === 'string' ? record.data.displayName : null,
        ),
        managedBecause: (data) => (data.isBuiltIn === true ? BUILT_IN : null),
      },
    ),
    role_assignment: graphCollection(
      { path: `${BASE}/roleAssignments`, params: ['id'], createBody: assignmentBody },
      {
        writable: (data) =>
          pick(data, ['principalId', 'roleDefinitionId', 'directoryScopeId', 'appScopeId', 'condition']),
        ...keyed('role_assignment', (record) => grantOf(record.data)),
        // What an assignment grants is all it is ("unifiedRoleAssignment" has no update in v1.0):
        // one matched by id whose record now names a re-created principal or role is another
        // grant, made anew; otherwise there is nothing to change.
        async update(record, live, context) {
          if (live.key === grantOf(record.data))
            return ['Graph has no update of a role assignment: its condition was left as it is'];
          await context.graph.write({
            method: 'POST',
            template: `${BASE}/roleAssignments`,
            body: assignmentBody(record.data),
            retryNotFound: true,
            signal: context.signal,
          });
          return [REGRANTED];
        },
        protectedBecause: (data, own) => ownServicePrincipalBecause(data.principalId, own),
        guardDeletions: guardGlobalAdministrators,
      },
    ),
    role_eligibility_schedule: pimSchedule({
      type: 'role_eligibility_schedule',
      requests: `${BASE}/roleEligibilityScheduleRequests`,
    }),
    role_assignment_schedule: pimSchedule({
      type: 'role_assignment_schedule',
      requests: `${BASE}/roleAssignmentScheduleRequests`,
    }),
  };
}
