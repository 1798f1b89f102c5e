import { manageScopes, readScopes } from '@libs/simulators/okta/auth/principal.js';
import { notFound, OktaError, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { empty } from '@libs/simulators/kit/http/reply.js';
import type { RequestContext, Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { listReply } from '@libs/simulators/okta/query/list-page.js';
import type { Entry, Json } from '@libs/simulators/okta/store/entry.js';
import { oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import { type ChildCollections, type OrgState, pairKey } from '@libs/simulators/okta/store/org-state.js';
import { catalogApp } from './catalog-apps.js';
import { serialize } from './links.js';
import { APP_TARGET_ROLES, GROUP_TARGET_ROLES } from './role-types.js';

/** Who holds the role assignment whose targets are addressed. */
type Assignee = 'USER' | 'GROUP';

/** The key of a whole OIN catalog app among an assignment's targets: `catalog.<appName>`. */
export function catalogTargetKey(appName: string): string {
  return `catalog.${appName}`;
}

/**
 * A target entry (OrgState.roleTargets): `{ kind: 'GROUP', id }`, `{ kind: 'APP', id, appName }`
 * (an app instance) or `{ kind: 'CATALOG', appName }` (every instance of an OIN app).
 */
export function targetEntry(kind: 'GROUP' | 'APP' | 'CATALOG', fields: Json): Entry {
  return { data: { kind, ...fields } };
}

/** `targets/limit`: listGroupTargetsForRole and listApplicationTargets... take `queryLimit` (default 20, maximum 200). */
const TARGET_LIMITS = { default: 20, max: 200, min: 1 };

/** E0000091, the recorded answer to a target a role type does not take (Okta error codes). */
function wrongRoleType(): OktaError {
  return new OktaError(400, 'E0000091', 'The provided role type was not the same as required role type.');
}

/**
 * Okta refuses to remove an assignment's last target ("You can't remove the last group target
 * from a role assignment since this causes an exception", unassignGroupTargetFromUserAdminRole
 * and its app twins): the role would apply to the whole org. The status and code are not
 * documented nor recorded; 400 E0000001 is the simulator's choice.
 */
function lastTarget(): OktaError {
  return validationFailed(
    'targets',
    "targets: The last target of a role assignment can't be removed; unassign the role to make it apply to every resource",
  );
}

/**
 * An app target as listAdminRoleAppTargets answers it (recorded): a catalog app, or an app
 * instance as `{ name: <label>, status, id, _links.self }` (its `name` is the instance's label,
 * not the OIN key). Null when the instance is gone.
 */
export function appTargetJson(state: OrgState, target: Entry, base: string): Json | null {
  if (target.data.kind === 'CATALOG')
    return catalogApp(state, String(target.data.appName), base) ?? { name: target.data.appName };
  const app = state.apps.get(String(target.data.id));
  if (!app) return null;
  const id = String(app.data.id);
  return {
    name: app.data.label,
    status: app.data.status,
    id,
    _links: { self: { href: `${base}/api/v1/apps/${id}` } },
  };
}

/**
 * Targets of standard role assignments, for users (`/api/v1/users/{userId}/roles/
 * {roleAssignmentId}/targets/...`, RoleBTargetAdmin) and groups (`/api/v1/groups/{groupId}/
 * roles/{roleAssignmentId}/targets/...`, RoleBTargetBGroup): groups for USER_ADMIN,
 * HELP_DESK_ADMIN and GROUP_MEMBERSHIP_ADMIN, OIN apps (`catalog/apps/{appName}`) and app
 * instances (`catalog/apps/{appName}/{appId}`) for APP_ADMIN. Lists answer `[]` while the role
 * is not limited, PUT and DELETE answer 204 (recorded for both owner kinds, though the
 * description gives the group's app PUT a 200). Adding the first target limits the role; a
 * whole OIN app replaces the instance targets of that app, and an instance of an app already
 * targeted whole is refused (400 E0000001); the last target cannot be removed; a target a role
 * type does not take answers 400 E0000091. Each change moves the assignment's `lastUpdated`
 * (recorded).
 */
export function roleTargetRoutes(org: OrgContext): Route[] {
  const read = { kind: 'admin', scopes: readScopes('okta.roles') } as const;
  const write = { kind: 'admin', scopes: manageScopes('okta.roles') } as const;
  const { state } = org;

  const ownerRoutes = (assignee: Assignee): Route[] => {
    const param = assignee === 'USER' ? 'userId' : 'groupId';
    const base = `/api/v1/${assignee === 'USER' ? 'users' : 'groups'}/{${param}}/roles/{roleAssignmentId}/targets`;
    const groupParam = assignee === 'USER' ? 'groupId' : 'targetGroupId';
    const roles: ChildCollections<Entry> = assignee === 'USER' ? state.userRoles : state.groupRoles;

    /** The addressed assignment and its targets' key; 404 for an unknown owner or assignment. */
    const assignment = (context: RequestContext) => {
      const ownerId = context.params[param];
      const owner = assignee === 'USER' ? state.users.get(ownerId) : state.groups.get(ownerId);
      if (!owner) throw notFound(ownerId, assignee === 'USER' ? 'User' : 'UserGroup');
      const assignmentId = context.params.roleAssignmentId;
      const entry = roles.peek(ownerId)?.get(assignmentId);
      if (!entry) throw notFound(assignmentId, 'RoleAssignment');
      return { ownerId, assignmentId, entry, key: pairKey(ownerId, assignmentId) };
    };
    const requireType = (entry: Entry, accepted: ReadonlySet<string>) => {
      if (!accepted.has(String(entry.data.type))) throw wrongRoleType();
    };
    const touch = (ownerId: string, assignmentId: string, entry: Entry) =>
      roles.of(ownerId).set(assignmentId, {
        ...entry,
        data: { ...entry.data, lastUpdated: oktaTimestamp(org.now()) },
      });
    const add = (context: RequestContext, accepted: ReadonlySet<string>, key: string, target: Entry) => {
      const { ownerId, assignmentId, entry, key: targetsKey } = assignment(context);
      requireType(entry, accepted);
      state.roleTargets.of(targetsKey).set(key, target);
      touch(ownerId, assignmentId, entry);
      return empty(204);
    };
    const remove = (context: RequestContext, key: string) => {
      const { ownerId, assignmentId, entry, key: targetsKey } = assignment(context);
      const targets = state.roleTargets.peek(targetsKey);
      if (!targets?.has(key)) throw notFound(key, 'RoleTarget');
      if (targets.size === 1) throw lastTarget();
      targets.delete(key);
      touch(ownerId, assignmentId, entry);
      return empty(204);
    };
    const list = (
      context: RequestContext,
      accepted: ReadonlySet<string>,
      serializeTarget: (e: Entry) => string,
    ) => {
      const { entry, key } = assignment(context);
      const targets = accepted.has(String(entry.data.type)) ? state.roleTargets.peek(key) : undefined;
      return listReply(context, org.baseUrl, targets, {
        limits: TARGET_LIMITS,
        params: [],
        serialize: serializeTarget,
      });
    };

    return [
      {
        method: 'GET',
        template: `${base}/groups`,
        access: read,
        handle: (context) =>
          list(context, GROUP_TARGET_ROLES, (target) => {
            const group = state.groups.get(String(target.data.id));
            return group ? serialize('group', group, org.baseUrl) : JSON.stringify({ id: target.data.id });
          }),
      },
      {
        method: 'PUT',
        template: `${base}/groups/{${groupParam}}`,
        access: write,
        handle: (context) => {
          const groupId = context.params[groupParam];
          if (!state.groups.has(groupId)) throw notFound(groupId, 'UserGroup');
          return add(context, GROUP_TARGET_ROLES, groupId, targetEntry('GROUP', { id: groupId }));
        },
      },
      {
        method: 'DELETE',
        template: `${base}/groups/{${groupParam}}`,
        access: write,
        handle: (context) => remove(context, context.params[groupParam]),
      },
      {
        method: 'GET',
        template: `${base}/catalog/apps`,
        access: read,
        handle: (context) =>
          list(context, APP_TARGET_ROLES, (target) =>
            JSON.stringify(appTargetJson(state, target, org.baseUrl) ?? { id: target.data.id }),
          ),
      },
      {
        method: 'PUT',
        template: `${base}/catalog/apps/{appName}`,
        access: write,
        handle: (context) => {
          const { appName } = context.params;
          if (!catalogApp(state, appName, org.baseUrl)) throw notFound(appName, 'CatalogApp');
          const reply = add(
            context,
            APP_TARGET_ROLES,
            catalogTargetKey(appName),
            targetEntry('CATALOG', { appName }),
          );
          // The whole app replaces the instance targets of that app (assignAppTargetToAdminRoleForUser).
          const targets = state.roleTargets.peek(assignment(context).key);
          for (const [key, target] of [...(targets?.entries() ?? [])])
            if (target.data.kind === 'APP' && target.data.appName === appName) targets?.delete(key);
          return reply;
        },
      },
      {
        method: 'DELETE',
        template: `${base}/catalog/apps/{appName}`,
        access: write,
        handle: (context) => remove(context, catalogTargetKey(context.params.appName)),
      },
      {
        method: 'PUT',
        template: `${base}/catalog/apps/{appName}/{appId}`,
        access: write,
        handle: (context) => {
          const { appName, appId } = context.params;
          const app = state.apps.get(appId);
          if (!app || app.data.name !== appName) throw notFound(appId, 'AppInstance');
          if (state.roleTargets.peek(assignment(context).key)?.has(catalogTargetKey(appName)))
            throw validationFailed(
              'appId',
              `appId: every instance of ${appName} is a target already; an instance cannot be added as well`,
            );
          return add(context, APP_TARGET_ROLES, appId, targetEntry('APP', { id: appId, appName }));
        },
      },
      {
        method: 'DELETE',
        template: `${base}/catalog/apps/{appName}/{appId}`,
        access: write,
        handle: (context) => remove(context, context.params.appId),
      },
    ];
  };

  return [...ownerRoutes('USER'), ...ownerRoutes('GROUP')];
}
