import { manageScopes, readScopes } from '@libs/simulators/okta/auth/principal.js';
import { accessDenied, notFound, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { empty, jsonText } from '@libs/simulators/kit/http/reply.js';
import { jsonBody } from '@libs/simulators/okta/http/request-body.js';
import type { RequestContext, Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { listReply } from '@libs/simulators/okta/query/list-page.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import { replaced, type Entry, type Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaId, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import { groupTarget, recordEvent, userTarget } from './audit.js';
import { groupOwnerRoutes } from './group-owners.routes.js';
import { render, serialize, userListText } from './links.js';
import { listFilter } from './list-filter.js';
import { requireText } from './validation.js';

/**
 * The filter Okta's listGroups accepts: "`id`, `type`, `lastUpdated`, and
 * `lastMembershipUpdated`" (OpenAPI listGroups `filter`); `search` takes any property.
 */
const GROUP_FILTER = {
  properties: ['id', 'type', 'lastUpdated', 'lastMembershipUpdated'],
  operators: (property: string) =>
    property === 'lastUpdated' || property === 'lastMembershipUpdated'
      ? ['eq', 'gt', 'ge', 'lt', 'le']
      : ['eq'],
};

/**
 * `/api/v1/groups` and their members (`/api/v1/groups/{groupId}/users`). Only OKTA_GROUP
 * groups are changed through the API: Okta manages BUILT_IN (Everyone) and APP_GROUP groups
 * itself, so changing or deleting them is refused with 403 E0000006. Group names are unique.
 * A member added or removed moves the group's `lastMembershipUpdated`; each write is recorded
 * in the System Log (`group.lifecycle.*`, `group.user_membership.add|remove`).
 */
export function groupRoutes(org: OrgContext): Route[] {
  const read = { kind: 'admin', scopes: readScopes('okta.groups') } as const;
  const write = { kind: 'admin', scopes: manageScopes('okta.groups') } as const;
  const { state } = org;
  const now = () => oktaTimestamp(org.now());
  const existing = (groupId: string): Entry => {
    const entry = state.groups.get(groupId);
    if (!entry) throw notFound(groupId, 'UserGroup');
    return entry;
  };
  const oktaManaged = (groupId: string): Entry => {
    const entry = existing(groupId);
    if (entry.data.type !== 'OKTA_GROUP') throw accessDenied();
    return entry;
  };
  const item = (entry: Entry) => jsonText(200, serialize('group', entry, org.baseUrl));
  const checkProfile = (profile: Json, selfId?: string) => {
    const name = requireText({ profile }, 'profile.name').toLowerCase();
    for (const [id, group] of state.groups.entries())
      if (id !== selfId && String((group.data.profile as Json).name).toLowerCase() === name)
        throw validationFailed(
          'name',
          'name: An object with this field already exists in the current organization',
        );
  };
  const membershipChanged = (groupId: string, userId: string, eventType: string, message: string) => {
    state.touchMembership(groupId, now());
    const user = state.users.get(userId)?.data ?? { id: userId };
    recordEvent(org, eventType, message, [userTarget(user), groupTarget(existing(groupId).data)]);
  };
  /**
   * The group with `_embedded.stats` (listGroups `expand=stats`): members, apps it is assigned
   * to, and whether it holds an admin role (spelled `hasAdminPrivlege` in the OpenAPI).
   */
  const withStats = (entry: Entry): Json => {
    const id = String(entry.data.id);
    let appsCount = 0;
    for (const [, groups] of state.appGroups.parents()) if (groups.has(id)) appsCount++;
    const stats = {
      usersCount: state.groupMembers.peek(id)?.size ?? 0,
      appsCount,
      groupPushMappingsCount: 0,
      hasAdminPrivlege: (state.groupRoles.peek(id)?.size ?? 0) > 0,
    };
    return { ...render('group', entry, org.baseUrl), _embedded: { stats } };
  };
  const member = ({ params }: RequestContext): string => {
    oktaManaged(params.groupId);
    if (!state.users.has(params.userId)) throw notFound(params.userId, 'User');
    return params.userId;
  };

  return [
    {
      method: 'GET',
      template: '/api/v1/groups',
      access: read,
      handle: (context) => {
        const filter = listFilter(context.url, ['profile.name'], { filterRules: GROUP_FILTER });
        return listReply(context, org.baseUrl, state.groups, {
          limits: PAGE_LIMITS.groups,
          params: ['search', 'filter', 'q', 'expand'],
          accept: filter && ((e) => filter(e.data)),
          serialize: context.url.searchParams
            .getAll('expand')
            .some((value) => value.split(',').includes('stats'))
            ? (e) => JSON.stringify(withStats(e))
            : (e) => serialize('group', e, org.baseUrl),
        });
      },
    },
    {
      method: 'POST',
      template: '/api/v1/groups',
      access: write,
      handle: (context) => {
        const profile = (jsonBody(context).profile ?? {}) as Json;
        checkProfile(profile);
        const at = now();
        const data: Json = {
          id: oktaId(ID_PREFIX.group),
          created: at,
          lastUpdated: at,
          lastMembershipUpdated: at,
          objectClass: ['okta:user_group'],
          type: 'OKTA_GROUP',
          profile,
        };
        const entry = { data };
        state.groups.set(String(data.id), entry);
        recordEvent(org, 'group.lifecycle.create', 'Create okta group', [groupTarget(data)]);
        return item(entry);
      },
    },
    {
      method: 'GET',
      template: '/api/v1/groups/{groupId}',
      access: read,
      handle: (context) => item(existing(context.params.groupId)),
    },
    {
      method: 'PUT',
      template: '/api/v1/groups/{groupId}',
      access: write,
      handle: (context) => {
        const current = oktaManaged(context.params.groupId);
        const profile = (jsonBody(context).profile ?? {}) as Json;
        checkProfile(profile, context.params.groupId);
        const entry = replaced(current, { ...current.data, profile, lastUpdated: now() });
        state.groups.set(context.params.groupId, entry);
        recordEvent(org, 'group.profile.update', 'Update group profile', [groupTarget(entry.data)]);
        return item(entry);
      },
    },
    {
      method: 'DELETE',
      template: '/api/v1/groups/{groupId}',
      access: write,
      handle: (context) => {
        const current = oktaManaged(context.params.groupId);
        state.removeGroup(context.params.groupId);
        recordEvent(org, 'group.lifecycle.delete', 'Delete Okta group', [groupTarget(current.data)]);
        return empty(204);
      },
    },
    {
      method: 'GET',
      template: '/api/v1/groups/{groupId}/users',
      access: read,
      handle: (context) => {
        existing(context.params.groupId);
        return listReply(context, org.baseUrl, state.groupMembers.peek(context.params.groupId), {
          limits: PAGE_LIMITS.groupMembers,
          params: [],
          // A member deleted from the org is removed from its groups, so the user is always there.
          serialize: (userId) => userListText(state.users.get(userId) as Entry, org.baseUrl),
        });
      },
    },
    {
      method: 'PUT',
      template: '/api/v1/groups/{groupId}/users/{userId}',
      access: write,
      handle: (context) => {
        const userId = member(context);
        if (state.groupMembers.peek(context.params.groupId)?.has(userId)) return empty(204);
        state.addMember(context.params.groupId, userId);
        membershipChanged(
          context.params.groupId,
          userId,
          'group.user_membership.add',
          'Add user to group membership',
        );
        return empty(204);
      },
    },
    {
      method: 'DELETE',
      template: '/api/v1/groups/{groupId}/users/{userId}',
      access: write,
      handle: (context) => {
        const userId = member(context);
        if (state.removeMember(context.params.groupId, userId))
          membershipChanged(
            context.params.groupId,
            userId,
            'group.user_membership.remove',
            'Remove user from group membership',
          );
        return empty(204);
      },
    },
    ...groupOwnerRoutes(org),
  ];
}
