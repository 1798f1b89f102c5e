import { manageScopes, readScopes } from '@libs/simulators/okta/auth/principal.js';
import { notFound, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { empty, jsonText } from '@libs/simulators/kit/http/reply.js';
import { jsonBody } from '@libs/simulators/okta/http/request-body.js';
import type { RequestContext, Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { listReply } from '@libs/simulators/okta/query/list-page.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import { replaced, type Entry, type Json } from '@libs/simulators/okta/store/entry.js';
import { oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import { newAppUser } from './app-user.js';
import { serialize } from './links.js';

/**
 * `/api/v1/apps/{appId}/users` and `/api/v1/apps/{appId}/groups`: assignments of users and
 * groups to an app, keyed by the user or group id (so `GET .../users/{userId}` answers the
 * assignment). Unknown app, user or group: 404 E0000007.
 */
export function appAssignmentRoutes(org: OrgContext): Route[] {
  const read = { kind: 'admin', scopes: readScopes('okta.apps') } as const;
  const write = { kind: 'admin', scopes: manageScopes('okta.apps') } as const;
  const appOf = ({ params }: RequestContext) => {
    if (!org.state.apps.has(params.appId)) throw notFound(params.appId, 'AppInstance');
    return params.appId;
  };
  const appUsers = (context: RequestContext) => org.state.appUsers.of(appOf(context));
  const appGroups = (context: RequestContext) => org.state.appGroups.of(appOf(context));
  const text = (type: 'app_user_assignment' | 'app_group_assignment', entry: Entry, appId: string) =>
    serialize(type, entry, org.baseUrl, [appId]);
  const now = () => oktaTimestamp(org.now());

  return [
    {
      method: 'GET',
      template: '/api/v1/apps/{appId}/users',
      access: read,
      handle: (context) =>
        listReply(context, org.baseUrl, appUsers(context), {
          limits: PAGE_LIMITS.appUsers,
          params: ['q', 'expand'],
          serialize: (e) => text('app_user_assignment', e, context.params.appId),
        }),
    },
    {
      method: 'POST',
      template: '/api/v1/apps/{appId}/users',
      access: write,
      handle: (context) => {
        const assignments = appUsers(context);
        const body = jsonBody(context);
        if (typeof body.id !== 'string') throw validationFailed('id', 'id: The field cannot be left blank');
        const user = org.state.users.get(body.id);
        if (!user) throw notFound(body.id, 'User');
        const entry = { data: newAppUser(user.data, body, now()) };
        assignments.set(body.id, entry);
        return jsonText(200, text('app_user_assignment', entry, context.params.appId));
      },
    },
    {
      method: 'GET',
      template: '/api/v1/apps/{appId}/users/{userId}',
      access: read,
      handle: (context) => {
        const entry = appUsers(context).get(context.params.userId);
        if (!entry) throw notFound(context.params.userId, 'AppUser');
        return jsonText(200, text('app_user_assignment', entry, context.params.appId));
      },
    },
    {
      method: 'POST',
      template: '/api/v1/apps/{appId}/users/{userId}',
      access: write,
      handle: (context) => {
        const assignments = appUsers(context);
        const current = assignments.get(context.params.userId);
        if (!current) throw notFound(context.params.userId, 'AppUser');
        const body = jsonBody(context);
        const entry = replaced(current, {
          ...current.data,
          ...(body.profile === undefined ? {} : { profile: body.profile }),
          ...(body.credentials === undefined ? {} : { credentials: body.credentials }),
          lastUpdated: now(),
        });
        assignments.set(context.params.userId, entry);
        return jsonText(200, text('app_user_assignment', entry, context.params.appId));
      },
    },
    {
      method: 'DELETE',
      template: '/api/v1/apps/{appId}/users/{userId}',
      access: write,
      handle: (context) => {
        if (!appUsers(context).delete(context.params.userId))
          throw notFound(context.params.userId, 'AppUser');
        return empty(204);
      },
    },
    {
      method: 'GET',
      template: '/api/v1/apps/{appId}/groups',
      access: read,
      handle: (context) =>
        listReply(context, org.baseUrl, appGroups(context), {
          limits: PAGE_LIMITS.appGroups,
          params: ['q', 'expand'],
          serialize: (e) => text('app_group_assignment', e, context.params.appId),
        }),
    },
    {
      method: 'GET',
      template: '/api/v1/apps/{appId}/groups/{groupId}',
      access: read,
      handle: (context) => {
        const entry = appGroups(context).get(context.params.groupId);
        if (!entry) throw notFound(context.params.groupId, 'ApplicationGroupAssignment');
        return jsonText(200, text('app_group_assignment', entry, context.params.appId));
      },
    },
    {
      method: 'PUT',
      template: '/api/v1/apps/{appId}/groups/{groupId}',
      access: write,
      handle: (context) => {
        const assignments = appGroups(context);
        const { groupId } = context.params;
        if (!org.state.groups.has(groupId)) throw notFound(groupId, 'UserGroup');
        const body = context.bodyText.trim() === '' ? {} : jsonBody(context);
        const data: Json = {
          id: groupId,
          lastUpdated: now(),
          priority: body.priority ?? assignments.size,
          profile: body.profile ?? {},
        };
        const current = assignments.get(groupId);
        const entry = current ? replaced(current, data) : { data };
        assignments.set(groupId, entry);
        return jsonText(200, text('app_group_assignment', entry, context.params.appId));
      },
    },
    {
      method: 'DELETE',
      template: '/api/v1/apps/{appId}/groups/{groupId}',
      access: write,
      handle: (context) => {
        if (!appGroups(context).delete(context.params.groupId))
          throw notFound(context.params.groupId, 'ApplicationGroupAssignment');
        return empty(204);
      },
    },
  ];
}
