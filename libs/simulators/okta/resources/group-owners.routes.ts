import { notFound, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import type { Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import type { Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX } from '@libs/simulators/okta/store/okta-ids.js';
import { collectionRoutes } from './collection-routes.js';

/**
 * `/api/v1/groups/{groupId}/owners`: owners of a group, users or groups, keyed by their id
 * (assignGroupOwner takes `{ id, type }` and answers 201 with the GroupOwner; there is no
 * update). Only an existing user or group can own; an unknown group is 404.
 */
export function groupOwnerRoutes(org: OrgContext): Route[] {
  return collectionRoutes(
    {
      type: 'group_owner',
      kindName: 'GroupOwner',
      path: '/api/v1/groups/{groupId}/owners',
      idParam: 'ownerId',
      idPrefix: ID_PREFIX.user,
      scopeFamily: 'okta.groups',
      limits: PAGE_LIMITS.groupOwners,
      listParams: ['search'],
      collection: ({ state }, { groupId }) => {
        if (!state.groups.has(groupId)) throw notFound(groupId, 'UserGroup');
        return state.groupOwners.of(groupId);
      },
      parents: ({ groupId }) => [groupId],
      keyFromBody: (body) => String(body.id ?? ''),
      stamps: ['lastUpdated'],
      defaults: (body, { org: o, id }) => ownerFields(o, id, body.type),
      createStatus: 201,
      updateMethods: [],
      deleteStatus: 204,
    },
    org,
  );
}

/**
 * The GroupOwner fields Okta fills in for a user or group owner (recorded traffic: `originId`
 * is null for an owner from Okta's directory, GroupOwner.originId "null if originType is
 * OKTA_DIRECTORY").
 */
export function ownerFields(org: OrgContext, id: string, type: unknown): Json {
  if (type === 'USER') {
    const user = org.state.users.get(id);
    if (!user) throw notFound(id, 'User');
    const profile = user.data.profile as Json;
    const displayName = `${String(profile.firstName)} ${String(profile.lastName)}`;
    return { type, resolved: true, originId: null, originType: 'OKTA_DIRECTORY', displayName };
  }
  if (type === 'GROUP') {
    const group = org.state.groups.get(id);
    if (!group) throw notFound(id, 'UserGroup');
    const displayName = String((group.data.profile as Json).name);
    return { type, resolved: true, originId: null, originType: 'OKTA_DIRECTORY', displayName };
  }
  throw validationFailed('type', 'type: Must be USER or GROUP');
}
