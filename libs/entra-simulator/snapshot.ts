import { USER_PROPERTIES } from './seed/users.js';
import type { GraphObject, TenantState } from './tenant-state.js';

/** One object of the tenant in the shared record vocabulary (libs/providers/resource-types.ts). */
export interface EntraSnapshotRecord {
  id: string;
  name: string | null;
  data: Record<string, unknown>;
}

/** Type -> records, in the Entra connector's type names (libs/providers/entra). */
export type EntraSnapshot = Record<string, EntraSnapshotRecord[]>;

function records(
  objects: Iterable<GraphObject>,
  name: (object: GraphObject) => unknown,
): EntraSnapshotRecord[] {
  return [...objects].map((object) => ({
    id: object.id,
    name: (name(object) as string | null) ?? null,
    data: object,
  }));
}

/**
 * Every object of the tenant as a backup of it must hold, so tests compare the two record by
 * record: users with every stored property (the connector selects them all), memberships as
 * `{ groupId, memberId, memberType }` with id `<groupId>:<memberId>`, the others as Graph
 * returns them.
 */
export function snapshotOf(state: TenantState): EntraSnapshot {
  const byName = (object: GraphObject): unknown => object.displayName;
  const user = records(state.collection('users').values(), (u) => u.userPrincipalName ?? u.displayName).map(
    (record) => ({
      ...record,
      data: Object.fromEntries(USER_PROPERTIES.map((name) => [name, record.data[name] ?? null])),
    }),
  );
  const membership: EntraSnapshotRecord[] = [];
  for (const [groupId, members] of state.members)
    for (const memberId of members)
      membership.push({
        id: `${groupId}:${memberId}`,
        name: null,
        data: {
          groupId,
          memberId,
          memberType: state.directoryObjectType(memberId)!.replace('#microsoft.graph.', ''),
        },
      });
  return {
    user,
    group: records(state.collection('groups').values(), byName),
    group_membership: membership,
    conditional_access_policy: records(state.collection('conditionalAccessPolicies').values(), byName),
    named_location: records(state.collection('namedLocations').values(), byName),
    authorization_policy: records(state.collection('authorizationPolicy').values(), byName),
    organization: records(state.collection('organization').values(), byName),
    domain: records(state.collection('domains').values(), (domain) => domain.id),
    authentication_methods_policy: records(state.collection('authenticationMethodsPolicy').values(), byName),
  };
}
