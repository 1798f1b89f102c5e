import { requireSensitiveActionAllowed } from './privileged-targets.js';
import { randomUUID } from 'node:crypto';

import { json, type Reply } from '@libs/simulators/kit/http/reply.js';
import type { Route } from '@libs/simulators/kit/http/router.js';

import { badRequest, GraphError, notFound } from './graph-error.js';
import { type GraphContext, graphRoute, requireRole } from './graph-route.js';
import { entityReply, listPage } from './odata-list.js';
import { USER_DEFAULT_PROPERTIES, USER_PROPERTIES, userObject } from './seed/users.js';
import { assertIdentifierUrisAllowed } from './identifier-uris.js';
import { jsonObjectBody } from './json-body.js';
import { extensionChanges } from './extension-values.js';
import { linkWriteRoutes, referencedObjectId } from './link-writes.routes.js';
import type { DeletableCollection, DeletedItem, GraphObject } from './tenant-state.js';

/**
 * The application permissions of the directory writes, from each operation's "Permissions" table
 * (least privileged first): "Create user" and "Update user" (User.ReadWrite.All), "Delete user"
 * (User.DeleteRestore.All), "Create group", "Update group", "Delete group" (Group.ReadWrite.All),
 * "Add members" and "Remove member" (GroupMember.ReadWrite.All), "List deletedItems" (User.Read.All
 * for users, Group.Read.All for groups), "Restore deleted item" and "Permanently delete an item"
 * (User.DeleteRestore.All for users, Group.ReadWrite.All for groups).
 */
const ROLES = {
  writeUsers: ['User.ReadWrite.All', 'Directory.ReadWrite.All'],
  deleteUsers: ['User.DeleteRestore.All', 'User.ReadWrite.All', 'Directory.ReadWrite.All'],
  writeGroups: ['Group.ReadWrite.All', 'Directory.ReadWrite.All'],
  writeMembers: ['GroupMember.ReadWrite.All', 'Group.ReadWrite.All', 'Directory.ReadWrite.All'],
  readDeletedUsers: ['User.Read.All', 'User.ReadWrite.All', 'Directory.Read.All', 'Directory.ReadWrite.All'],
  readDeletedGroups: [
    'Group.Read.All',
    'Group.ReadWrite.All',
    'Directory.Read.All',
    'Directory.ReadWrite.All',
  ],
  // "Update application", "Delete application", "Update servicePrincipal", "Delete
  // servicePrincipal", "Restore deleted item" of either (Application.ReadWrite.OwnedBy is for the
  // app's own objects only); "List deletedItems" (Application.Read.All)
  writeApplications: ['Application.ReadWrite.All', 'Directory.ReadWrite.All'],
  readApplications: [
    'Application.Read.All',
    'Application.ReadWrite.All',
    'Directory.Read.All',
    'Directory.ReadWrite.All',
  ],
  // "Update administrativeUnit", "Delete administrativeUnit"; "List deletedItems"
  writeUnits: ['AdministrativeUnit.ReadWrite.All', 'Directory.ReadWrite.All'],
  readUnits: [
    'AdministrativeUnit.Read.All',
    'AdministrativeUnit.ReadWrite.All',
    'Directory.Read.All',
    'Directory.ReadWrite.All',
  ],
  // "Create oAuth2PermissionGrant", "Update a delegated permission grant", "Delete a delegated
  // permission grant"
  writeGrants: ['DelegatedPermissionGrant.ReadWrite.All', 'Directory.ReadWrite.All'],
} as const;

/**
 * Per collection the deleted items hold ("directory: deletedItems": users, groups, applications,
 * service principals, administrative units): its `@odata.type` name and the permissions that list
 * (read) or restore and purge (write) its deleted items.
 */
const DELETED_KINDS: Readonly<
  Record<DeletedItem['collection'], { type: string; read: readonly string[]; write: readonly string[] }>
> = {
  users: { type: 'user', read: ROLES.readDeletedUsers, write: ROLES.deleteUsers },
  groups: { type: 'group', read: ROLES.readDeletedGroups, write: ROLES.writeGroups },
  applications: { type: 'application', read: ROLES.readApplications, write: ROLES.writeApplications },
  servicePrincipals: {
    type: 'servicePrincipal',
    read: ROLES.readApplications,
    write: ROLES.writeApplications,
  },
  administrativeUnits: { type: 'administrativeUnit', read: ROLES.readUnits, write: ROLES.writeUnits },
};

/** The group properties the simulator keeps (those of a generated group). */
const GROUP_PROPERTIES = [
  'displayName',
  'description',
  'mailNickname',
  'mail',
  'mailEnabled',
  'securityEnabled',
  'groupTypes',
  'membershipRule',
  'membershipRuleProcessingState',
  'visibility',
  'isAssignableToRole',
] as const;

/** `body`'s members among `names`, others left out (read-only ones, annotations, passwords). */
function writable(body: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([name]) => names.includes(name)));
}

/** @throws GraphError 400 `Request_BadRequest` naming the first required property missing */
function requireProperties(body: Record<string, unknown>, names: readonly string[]): void {
  for (const name of names)
    if (body[name] === undefined || body[name] === null)
      throw new GraphError(
        400,
        'Request_BadRequest',
        `Invalid value specified for property '${name}' of resource '${name}'.`,
      );
}

/**
 * The user and group writes an admin's tools make, so tests change a tenant as its admins do:
 * - `POST /users` ("Create user": `accountEnabled`, `displayName`, `mailNickname`,
 *   `userPrincipalName`, `passwordProfile` required; 201 with the user; the password is never
 *   stored nor returned), `PATCH /users/{id}` (204; with the user's directory extension values), `DELETE /users/{id}` (204, to the deleted items);
 * - `POST /groups` ("Create group": `displayName`, `mailEnabled`, `mailNickname`, `securityEnabled`
 *   required; 201), `PATCH /groups/{id}` (204), `DELETE /groups/{id}` (204: Microsoft 365 and cloud
 *   security groups to the deleted items, distribution and synchronized groups for good:
 *   TenantState.remove);
 * - `POST /groups/{id}/members/$ref` with `{"@odata.id": ".../directoryObjects/{id}"}` ("Add
 *   members": 204; 400 when already a member) and `DELETE /groups/{id}/members/{memberId}/$ref`
 *   ("Remove member": 204).
 * Each change is one delta queries report (tenant-state.ts).
 */
export function directoryWriteRoutes(graph: GraphContext): Route[] {
  const { state } = graph;
  const users = state.collection('users');
  const groups = state.collection('groups');
  return [
    graphRoute(graph, 'POST', '/v1.0/users', ROLES.writeUsers, ({ url, bodyText }) => {
      const body = jsonObjectBody(bodyText);
      requireProperties(body, [
        'accountEnabled',
        'displayName',
        'mailNickname',
        'userPrincipalName',
        'passwordProfile',
      ]);
      const upn = String(body.userPrincipalName).toLowerCase();
      if ([...users.values()].some((user) => String(user.userPrincipalName).toLowerCase() === upn))
        throw new GraphError(
          400,
          'Request_BadRequest',
          'Another object with the same value for property userPrincipalName already exists.',
        );
      const user = userObject({
        ...writable(body, USER_PROPERTIES),
        id: randomUUID(),
        createdDateTime: new Date().toISOString(),
      });
      state.create('users', user);
      return created(entityReply(url, graph.baseUrl, 'users/$entity', user, USER_DEFAULT_PROPERTIES));
    }),
    graphRoute(graph, 'PATCH', '/v1.0/users/{id}', ROLES.writeUsers, ({ params, bodyText, headers }) => {
      const body = jsonObjectBody(bodyText);
      requireSensitiveActionAllowed(graph, headers.authorization, params.id, body);
      const changes = {
        ...writable(
          body,
          USER_PROPERTIES.filter((name) => name !== 'id' && name !== 'createdDateTime'),
        ),
        // directory extension attributes of the tenant's User extensions (extension-values.ts)
        ...extensionChanges(state, body, 'User'),
      };
      if (!state.update('users', params.id, changes)) throw notFound(params.id);
      return { status: 204 };
    }),
    graphRoute(graph, 'DELETE', '/v1.0/users/{id}', ROLES.deleteUsers, ({ params, headers }) => {
      requireSensitiveActionAllowed(graph, headers.authorization, params.id);
      if (!state.remove('users', params.id)) throw notFound(params.id);
      return { status: 204 };
    }),
    graphRoute(graph, 'POST', '/v1.0/groups', ROLES.writeGroups, ({ url, bodyText }) => {
      const body = jsonObjectBody(bodyText);
      requireProperties(body, ['displayName', 'mailEnabled', 'mailNickname', 'securityEnabled']);
      const group: GraphObject = {
        id: randomUUID(),
        ...Object.fromEntries(GROUP_PROPERTIES.map((name) => [name, null])),
        groupTypes: [],
        ...writable(body, GROUP_PROPERTIES),
        createdDateTime: new Date().toISOString(),
        deletedDateTime: null,
      };
      state.create('groups', group);
      return created(entityReply(url, graph.baseUrl, 'groups/$entity', group));
    }),
    graphRoute(graph, 'PATCH', '/v1.0/groups/{id}', ROLES.writeGroups, ({ params, bodyText }) => {
      if (!state.update('groups', params.id, writable(jsonObjectBody(bodyText), GROUP_PROPERTIES)))
        throw notFound(params.id);
      return { status: 204 };
    }),
    graphRoute(graph, 'DELETE', '/v1.0/groups/{id}', ROLES.writeGroups, ({ params }) => {
      if (!state.remove('groups', params.id)) throw notFound(params.id);
      return { status: 204 };
    }),
    graphRoute(
      graph,
      'POST',
      '/v1.0/groups/{id}/members/$ref',
      ROLES.writeMembers,
      ({ params, bodyText }) => {
        if (!groups.has(params.id)) throw notFound(params.id);
        const memberId = referencedObjectId(bodyText);
        if (!state.directoryObjectType(memberId)) throw notFound(memberId);
        if (!state.link(params.id, memberId))
          throw new GraphError(
            400,
            'Request_BadRequest',
            "One or more added object references already exist for the following modified properties: 'members'.",
          );
        return { status: 204 };
      },
    ),
    // "Add owners", "Remove owner" (Group.ReadWrite.All, Directory.ReadWrite.All)
    ...linkWriteRoutes(graph, {
      parentPath: 'groups',
      parent: 'groups',
      segment: 'owners',
      children: 'groupOwners',
      roles: ROLES.writeGroups,
      // "Add owners" of a group: users and service principals
      accepts: ['#microsoft.graph.user', '#microsoft.graph.servicePrincipal'],
    }),
    graphRoute(
      graph,
      'DELETE',
      '/v1.0/groups/{id}/members/{memberId}/$ref',
      ROLES.writeMembers,
      ({ params }) => {
        if (!groups.has(params.id)) throw notFound(params.id);
        if (!state.unlink(params.id, params.memberId)) throw notFound(params.memberId);
        return { status: 204 };
      },
    ),
  ];
}

/**
 * The directory's deleted items ("directory: deletedItems"; "List deletedItems": the OData cast
 * `microsoft.graph.user` or `microsoft.graph.group` is required, a listing without it is refused),
 * one deleted item (`GET /directory/deletedItems/{id}`), its restore (`POST .../{id}/restore`: 200
 * with the object, back with its id and memberships) and its permanent deletion (`DELETE .../{id}`:
 * 204). Each object carries `deletedDateTime`.
 */
export function deletedItemsRoutes(graph: GraphContext): Route[] {
  const { state } = graph;
  const base = '/v1.0/directory/deletedItems';
  const kinds = Object.entries(DELETED_KINDS) as Array<
    [DeletedItem['collection'], (typeof DELETED_KINDS)[DeletedItem['collection']]]
  >;
  const deletedOf = (collection: DeletedItem['collection']): GraphObject[] =>
    [...state.deleted.values()]
      .filter((item) => item.collection === collection)
      .map((item) => ({ ...item.object, deletedDateTime: item.deletedDateTime }));
  /** The deleted item `id` after checking the caller's permission for its type. */
  const item = (id: string, authorization: string | undefined, write: boolean): DeletedItem => {
    const found = state.deleted.get(id);
    const kind = DELETED_KINDS[found?.collection ?? 'users'];
    requireRole(graph, authorization, write ? kind.write : kind.read);
    if (!found) throw notFound(id);
    return found;
  };
  const odataType = (item: DeletedItem): string => `#microsoft.graph.${DELETED_KINDS[item.collection].type}`;
  return [
    graphRoute(graph, 'GET', base, [...new Set(kinds.flatMap(([, kind]) => kind.read))], () => {
      throw badRequest(
        "The OData cast of the deleted items to list is required, such as 'microsoft.graph.user'.",
      );
    }),
    ...kinds.map(([collection, kind]) =>
      graphRoute(graph, 'GET', `${base}/microsoft.graph.${kind.type}`, kind.read, ({ url }) =>
        listPage(
          url,
          graph.baseUrl,
          `directory/deletedItems/microsoft.graph.${kind.type}`,
          deletedOf(collection),
          collection === 'users' ? [...USER_DEFAULT_PROPERTIES, 'deletedDateTime'] : undefined,
        ),
      ),
    ),
    {
      method: 'GET',
      template: `${base}/{id}`,
      access: { kind: 'public' },
      handle({ url, params, headers }) {
        const found = item(params.id, headers.authorization, false);
        return entityReply(url, graph.baseUrl, 'directory/deletedItems/$entity', {
          '@odata.type': odataType(found),
          ...found.object,
          deletedDateTime: found.deletedDateTime,
        });
      },
    },
    {
      method: 'POST',
      template: `${base}/{id}/restore`,
      access: { kind: 'public' },
      handle({ params, headers }) {
        const found = item(params.id, headers.authorization, true);
        const restored = state.restore(params.id)!;
        return json(200, {
          '@odata.context': `${graph.baseUrl}/v1.0/$metadata#directoryObjects/$entity`,
          '@odata.type': odataType(found),
          ...restored,
        });
      },
    },
    {
      method: 'DELETE',
      template: `${base}/{id}`,
      access: { kind: 'public' },
      handle({ params, headers }) {
        item(params.id, headers.authorization, true);
        state.purge(params.id);
        return { status: 204 };
      },
    },
  ];
}

/**
 * Updates and deletions of applications, service principals, administrative units and delegated
 * permission grants ("Update application" / "Delete application" and the same pages of the
 * others: `PATCH /{path}/{id}` 204, `DELETE /{path}/{id}` 204, to the deleted items except a
 * grant; an application's service principal goes with it), and "Create oAuth2PermissionGrant" (`POST /oauth2PermissionGrants`: `clientId`,
 * `consentType` and `resourceId` required, `principalId` with `Principal` consent; 201), so tests
 * change these types as a tenant's admins do. An update sets only properties the object has
 * (Graph refuses a property its type lacks with 400) and never its id. Each change is one delta
 * queries report.
 */
export function objectWriteRoutes(graph: GraphContext): Route[] {
  const { state } = graph;
  const writes: ReadonlyArray<{ path: string; collection: DeletableCollection; roles: readonly string[] }> = [
    { path: 'applications', collection: 'applications', roles: ROLES.writeApplications },
    { path: 'servicePrincipals', collection: 'servicePrincipals', roles: ROLES.writeApplications },
    { path: 'directory/administrativeUnits', collection: 'administrativeUnits', roles: ROLES.writeUnits },
    { path: 'oauth2PermissionGrants', collection: 'oauth2PermissionGrants', roles: ROLES.writeGrants },
  ];
  return [
    ...writes.flatMap(({ path, collection, roles }) => [
      graphRoute(graph, 'PATCH', `/v1.0/${path}/{id}`, roles, ({ params, bodyText }) => {
        const object = state.collection(collection).get(params.id);
        if (!object) throw notFound(params.id);
        const { id: _id, ...changes } = jsonObjectBody(bodyText);
        const unknown = Object.keys(changes).find((name) => !(name in object));
        if (unknown)
          throw badRequest(
            `Property '${unknown}' does not exist as a declared property or extension property.`,
          );
        if (collection === 'applications' && Array.isArray(changes.identifierUris)) {
          const held = (object.identifierUris ?? []) as string[];
          const added = (changes.identifierUris as string[]).filter((uri) => !held.includes(uri));
          assertIdentifierUrisAllowed(state, object, added);
        }
        state.update(collection, params.id, changes);
        // "servicePrincipal resource type" appRoles: "The roles exposed by the application that
        // this service principal represents": its home tenant's service principal follows them.
        if (collection === 'applications' && Array.isArray(changes.appRoles))
          for (const sp of [...state.collection('servicePrincipals').values()])
            if (sp.appId === object.appId)
              state.update('servicePrincipals', sp.id, { appRoles: changes.appRoles });
        return { status: 204 };
      }),
      graphRoute(graph, 'DELETE', `/v1.0/${path}/{id}`, roles, ({ params }) => {
        const appId =
          collection === 'applications' ? state.collection(collection).get(params.id)?.appId : undefined;
        if (!state.remove(collection, params.id)) throw notFound(params.id);
        // Deleting an app registration in its home tenant deletes its service principal too; a
        // restore of the application does not bring that back ("Restore a soft deleted
        // enterprise application"; Restore-EntraDeletedApplication).
        if (appId !== undefined)
          for (const sp of [...state.collection('servicePrincipals').values()])
            if (sp.appId === appId) state.remove('servicePrincipals', sp.id);
        return { status: 204 };
      }),
    ]),
    graphRoute(graph, 'POST', '/v1.0/oauth2PermissionGrants', ROLES.writeGrants, ({ url, bodyText }) => {
      const body = jsonObjectBody(bodyText);
      requireProperties(body, ['clientId', 'consentType', 'resourceId']);
      if (body.consentType === 'Principal') requireProperties(body, ['principalId']);
      // Graph's grant ids are opaque strings made from the client, resource (and principal) ids.
      const ids = `${String(body.clientId)}${String(body.resourceId)}${String(body.principalId ?? '')}`;
      const grant: GraphObject = {
        id: Buffer.from(ids.replace(/-/g, ''), 'hex').toString('base64url'),
        clientId: body.clientId,
        consentType: body.consentType,
        principalId: body.principalId ?? null,
        resourceId: body.resourceId,
        scope: body.scope ?? '',
      };
      if (state.collection('oauth2PermissionGrants').has(grant.id))
        throw new GraphError(
          409,
          'Request_MultipleObjectsWithSameKeyValue',
          'Permission entry already exists.',
        );
      state.create('oauth2PermissionGrants', grant);
      return created(entityReply(url, graph.baseUrl, 'oauth2PermissionGrants/$entity', grant));
    }),
  ];
}

/**
 * `GET /directory/recovery/jobs` ("List jobs" of Microsoft Entra Backup and Recovery: preview and
 * recovery jobs with their `@odata.type`; EntraBackup.Read.All).
 */
export function recoveryJobsRoute(graph: GraphContext): Route {
  return graphRoute(graph, 'GET', '/v1.0/directory/recovery/jobs', ['EntraBackup.Read.All'], ({ url }) =>
    listPage(url, graph.baseUrl, 'directory/recovery/jobs', graph.state.recoveryJobs),
  );
}

function created(reply: Reply): Reply {
  return { ...reply, status: 201 };
}
