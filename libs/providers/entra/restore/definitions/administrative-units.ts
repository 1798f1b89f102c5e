import { idParts } from '@libs/providers/kit/type-restore-definition.js';
import type { EntraResourceType } from '@libs/providers/entra/entra-resource-catalog.js';
import type { GraphObject } from '@libs/providers/entra/graph-api-client.js';
import type { EntraRestoreDefinition } from '@libs/providers/entra/restore/entra-restore-definition.js';
import { graphCollection } from '@libs/providers/entra/restore/graph-collection.js';
import { directoryLink } from './directory.js';
import { keyed } from './natural-key.js';

const DIRECTORY_ROLE =
  "A scoped role member names the activated directory role (roleId, a directoryRole's id, not its template): when the role was deactivated since the backup, activate it and add the member again";

/** The member a scoped role membership names (`roleMemberInfo.id`). */
function memberOf(data: GraphObject): string {
  return String((data.roleMemberInfo as GraphObject | null | undefined)?.id ?? '');
}

/**
 * Administrative units, their members and their scoped role members ("Create administrativeUnit",
 * "Update administrativeUnit", "Delete administrativeUnit", "Add a member", "Remove a member",
 * "Add a scopedRoleMember", "Remove a scopedRoleMember"). A unit still in the deleted items comes
 * back from there with its id (EntraRestorer).
 */
export function administrativeUnitDefinitions(): Partial<Record<EntraResourceType, EntraRestoreDefinition>> {
  return {
    administrative_unit: graphCollection(
      { path: '/v1.0/directory/administrativeUnits', params: ['id'] },
      {
        ...keyed('administrative_unit', (record) =>
          typeof record.data.displayName === 'string' ? record.data.displayName : null,
        ),
      },
    ),
    administrative_unit_member: directoryLink('/v1.0/directory/administrativeUnits/{id}/members'),
    scoped_role_membership: graphCollection(
      {
        path: '/v1.0/directory/administrativeUnits/{administrativeUnitId}/scopedRoleMembers',
        params: ['administrativeUnitId', 'id'],
        createBody: (writable) => ({ roleId: writable.roleId, roleMemberInfo: { id: writable.memberId } }),
      },
      {
        // The unit and its member's display name are Graph's to answer: who holds which role is
        // all a membership is, so it is never updated (a different one is another membership).
        writable: (data) => ({ roleId: data.roleId, memberId: memberOf(data) }),
        ...keyed(
          'scoped_role_membership',
          (record) => `${idParts(record.id)[0]}:${String(record.data.roleId)}:${memberOf(record.data)}`,
        ),
        update: undefined,
        notes: [DIRECTORY_ROLE],
      },
    ),
  };
}
