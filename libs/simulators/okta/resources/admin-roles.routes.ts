import { manageScopes, readScopes } from '@libs/simulators/okta/auth/principal.js';
import { notFound, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { empty, jsonText } from '@libs/simulators/kit/http/reply.js';
import { jsonBody } from '@libs/simulators/okta/http/request-body.js';
import type { RequestContext, Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { listReply } from '@libs/simulators/okta/query/list-page.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import type { Entry, Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaId, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import { type ChildCollections, type OrgState, pairKey } from '@libs/simulators/okta/store/org-state.js';
import { groupTarget, recordEvent, userTarget } from './audit.js';
import { STANDARD_ROLE_LABELS } from './role-types.js';

/** Who holds a role: a user or a group, as `assignmentType` says. */
type Assignee = 'USER' | 'GROUP';

/**
 * A role assignment as Okta answers it (StandardRole, or CustomRole with `role` and
 * `resource-set`), with the `assignee` link. `base` is the org's origin.
 */
export function roleAssignmentJson(entry: Entry, assignee: Assignee, ownerId: string, base: string): Json {
  if (entry.data._links !== undefined) return entry.data;
  const path = assignee === 'USER' ? 'users' : 'groups';
  const links: Json = { assignee: { href: `${base}/api/v1/${path}/${ownerId}` } };
  if (entry.data.type === 'CUSTOM') {
    links.role = { href: `${base}/api/v1/iam/roles/${String(entry.data.role)}` };
    links['resource-set'] = {
      href: `${base}/api/v1/iam/resource-sets/${String(entry.data['resource-set'])}`,
    };
  }
  return { ...entry.data, assignmentType: assignee, _links: links };
}

/**
 * A new role assignment from assignRoleToUser / assignRoleToGroup's body: a standard `type`,
 * or `CUSTOM` with an existing `role` and `resource-set`. Throws 400 E0000001 otherwise.
 */
export function newRoleAssignment(state: OrgState, body: Json, id: string, now: string): Json {
  const type = String(body.type);
  const common = { id, status: 'ACTIVE', created: now, lastUpdated: now };
  if (type === 'CUSTOM') {
    const role = state.customRoles.get(String(body.role));
    const set = state.resourceSets.get(String(body['resource-set']));
    if (!role || !set)
      throw validationFailed(
        'role',
        'role and resource-set must name an existing custom role and resource set',
      );
    return { ...common, label: role.data.label, type, role: role.data.id, 'resource-set': set.data.id };
  }
  const label = STANDARD_ROLE_LABELS[type];
  if (!label) throw validationFailed('type', `type: Unknown role type ${type}`);
  return { ...common, label, type };
}

/**
 * Admin role assignments of users (`/api/v1/users/{userId}/roles`: the user's own roles, then
 * those it holds through its groups, `assignmentType: GROUP`) and of groups
 * (`/api/v1/groups/{groupId}/roles`), assigned with POST (201), read and unassigned; and
 * `/api/v1/iam/assignees/users`, the users holding roles of their own (`{ "value": [...] }`).
 */
export function adminRoleRoutes(org: OrgContext): Route[] {
  const read = { kind: 'admin', scopes: readScopes('okta.roles') } as const;
  const write = { kind: 'admin', scopes: manageScopes('okta.roles') } as const;
  const { state } = org;
  const now = () => oktaTimestamp(org.now());

  const ownerRoutes = (assignee: Assignee): Route[] => {
    const path = assignee === 'USER' ? '/api/v1/users/{userId}/roles' : '/api/v1/groups/{groupId}/roles';
    const param = assignee === 'USER' ? 'userId' : 'groupId';
    const roles: ChildCollections<Entry> = assignee === 'USER' ? state.userRoles : state.groupRoles;
    const owner = (context: RequestContext): Json => {
      const id = context.params[param];
      const entry = assignee === 'USER' ? state.users.get(id) : state.groups.get(id);
      if (!entry) throw notFound(id, assignee === 'USER' ? 'User' : 'UserGroup');
      return entry.data;
    };
    const target = (data: Json) => (assignee === 'USER' ? userTarget(data) : groupTarget(data));
    const text = (entry: Entry, ownerId: string) =>
      JSON.stringify(roleAssignmentJson(entry, assignee, ownerId, org.baseUrl));
    const assignment = (context: RequestContext) => {
      const entry = roles.peek(String(owner(context).id))?.get(context.params.roleAssignmentId);
      if (!entry) throw notFound(context.params.roleAssignmentId, 'RoleAssignment');
      return entry;
    };
    return [
      {
        method: 'GET',
        template: path,
        access: read,
        handle: (context) => {
          const ownerId = String(owner(context).id);
          const own = [...(roles.peek(ownerId)?.valuesInOrder() ?? [])].map((e) => text(e, ownerId));
          const inherited =
            assignee === 'USER'
              ? state
                  .groupIdsOf(ownerId)
                  .flatMap((groupId) =>
                    [...(state.groupRoles.peek(groupId)?.valuesInOrder() ?? [])].map((e) =>
                      JSON.stringify(roleAssignmentJson(e, 'GROUP', groupId, org.baseUrl)),
                    ),
                  )
              : [];
          return jsonText(200, `[${[...own, ...inherited].join(',')}]`);
        },
      },
      {
        method: 'POST',
        template: path,
        access: write,
        handle: (context) => {
          const data = owner(context);
          const entry = {
            data: newRoleAssignment(state, jsonBody(context), oktaId(ID_PREFIX.roleAssignment), now()),
          };
          roles.of(String(data.id)).set(String(entry.data.id), entry);
          recordEvent(org, 'user.account.privilege.grant', 'Grant user privilege', [target(data)]);
          return jsonText(201, text(entry, String(data.id)));
        },
      },
      {
        method: 'GET',
        template: `${path}/{roleAssignmentId}`,
        access: read,
        handle: (context) => jsonText(200, text(assignment(context), context.params[param])),
      },
      {
        method: 'DELETE',
        template: `${path}/{roleAssignmentId}`,
        access: write,
        handle: (context) => {
          assignment(context);
          roles.of(context.params[param]).delete(context.params.roleAssignmentId);
          state.roleTargets.drop(pairKey(context.params[param], context.params.roleAssignmentId));
          recordEvent(org, 'user.account.privilege.revoke', 'Revoke user privilege', [
            target(owner(context)),
          ]);
          return empty(204);
        },
      },
    ];
  };

  return [
    ...ownerRoutes('USER'),
    ...ownerRoutes('GROUP'),
    {
      method: 'GET',
      template: '/api/v1/iam/assignees/users',
      access: read,
      handle: (context) =>
        listReply(context, org.baseUrl, state.users, {
          limits: PAGE_LIMITS.iamResources,
          params: [],
          accept: (e) => (state.userRoles.peek(String(e.data.id))?.size ?? 0) > 0,
          wrap: 'value',
          serialize: (e) => {
            const id = String(e.data.id);
            const self = `${org.baseUrl}/api/v1/users/${id}`;
            return JSON.stringify({
              id,
              orn: `orn:okta:directory:simulator:users:${id}`,
              _links: { self: { href: self }, roles: { href: `${self}/roles` } },
            });
          },
        }),
    },
  ];
}
