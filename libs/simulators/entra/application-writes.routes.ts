import { randomUUID } from 'node:crypto';

import type { Reply } from '@libs/simulators/kit/http/reply.js';
import type { Route } from '@libs/simulators/kit/http/router.js';

import { assertIdentifierUrisAllowed } from './identifier-uris.js';
import { jsonObjectBody } from './json-body.js';
import { badRequest, GraphError, notFound } from './graph-error.js';
import { linkWriteRoutes } from './link-writes.routes.js';
import { type GraphContext, graphRoute } from './graph-route.js';
import { entityReply } from './odata-list.js';
import {
  APPLICATION_DEFAULTS,
  SERVICE_PRINCIPAL_DEFAULTS,
  UNIT_DEFAULTS,
} from './seed/directory-defaults.js';
import type { ChildCollection, Collection, GraphObject } from './tenant-state.js';

/**
 * The application permissions of the writes below, from each operation's "Permissions" table
 * (least privileged first): "Create application", "Add owner", "Remove owner", "Create
 * federatedIdentityCredential", "Update federatedIdentityCredential", "Delete
 * federatedIdentityCredential", "Create extensionProperty", "Delete extensionProperty" and "Create
 * servicePrincipal" (Application.ReadWrite.OwnedBy, Application.ReadWrite.All,
 * Directory.ReadWrite.All where listed); "Grant an appRoleAssignment for a service principal" and
 * "Delete appRoleAssignedTo" (AppRoleAssignment.ReadWrite.All, with Application.Read.All);
 * "Create administrativeUnit", "Add a member", "Remove a member" (AdministrativeUnit.ReadWrite.All);
 * "Add a scopedRoleMember", "Remove a scopedRoleMember" (RoleManagement.ReadWrite.Directory).
 */
const ROLES = {
  applications: ['Application.ReadWrite.OwnedBy', 'Application.ReadWrite.All', 'Directory.ReadWrite.All'],
  appRoleAssignments: ['AppRoleAssignment.ReadWrite.All'],
  units: ['AdministrativeUnit.ReadWrite.All', 'Directory.ReadWrite.All'],
  scopedRoleMembers: ['RoleManagement.ReadWrite.Directory'],
} as const;

/**
 * What a service principal of another organization's app takes from the app ("servicePrincipal":
 * the read-only properties its publisher's registration sets, and its roles and scopes).
 */
const PUBLISHED_APP_PROPERTIES = [
  'appId',
  'displayName',
  'appDisplayName',
  'appDescription',
  'appOwnerOrganizationId',
  'appRoles',
  'oauth2PermissionScopes',
  'servicePrincipalNames',
  'signInAudience',
  'publisherName',
  'verifiedPublisher',
  'homepage',
  'info',
];

/** `object`'s members among `names` that it has. */
function pick(object: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => name in object).map((name) => [name, object[name]]));
}

/** The default app role id: an assignment to an app that declares no role ("appRoleAssignment"). */
const DEFAULT_APP_ROLE = '00000000-0000-0000-0000-000000000000';

/** @throws GraphError 400 `Request_BadRequest` naming the first of `names` the body lacks */
export function requireMembers(body: Record<string, unknown>, names: readonly string[]): void {
  for (const name of names)
    if (body[name] === undefined || body[name] === null)
      throw new GraphError(400, 'Request_BadRequest', `Property '${name}' is required and was not set.`);
}

/** A 201 Created answer with `object`, its `@odata.context` naming the entity set. */
function created(graph: GraphContext, url: URL, context: string, object: GraphObject): Reply {
  return { ...entityReply(url, graph.baseUrl, context, object), status: 201 };
}

/**
 * Objects contained under a parent: `POST .../{id}/<segment>` (201 with the object `make` builds
 * from the body, a new GUID id), `PATCH .../{id}/<segment>/{childId}` when `update` says what may
 * change (204), `DELETE .../{id}/<segment>/{childId}` (204).
 */
interface ContainedWrites {
  parentPath: string;
  parent: Collection;
  segment: string;
  children: ChildCollection;
  roles: readonly string[];
  make(body: Record<string, unknown>, parent: GraphObject, siblings: GraphObject[]): GraphObject;
  update?(object: GraphObject, changes: Record<string, unknown>): void;
}

function containedRoutes(graph: GraphContext, writes: ContainedWrites): Route[] {
  const { state } = graph;
  const base = `/v1.0/${writes.parentPath}/{id}/${writes.segment}`;
  const parentOf = (id: string): GraphObject => {
    const parent = state.collection(writes.parent).get(id);
    if (!parent) throw notFound(id);
    return parent;
  };
  const routes = [
    graphRoute(graph, 'POST', base, writes.roles, ({ url, params, bodyText }) => {
      const parent = parentOf(params.id);
      const object = writes.make(
        jsonObjectBody(bodyText),
        parent,
        state.childrenOf(writes.children, params.id),
      );
      state.addChild(writes.children, params.id, object);
      return created(graph, url, `${writes.parentPath}('${params.id}')/${writes.segment}/$entity`, object);
    }),
    graphRoute(graph, 'DELETE', `${base}/{childId}`, writes.roles, ({ params }) => {
      parentOf(params.id);
      if (!state.removeChild(writes.children, params.id, params.childId)) throw notFound(params.childId);
      return { status: 204 };
    }),
  ];
  const { update } = writes;
  if (update)
    routes.push(
      graphRoute(graph, 'PATCH', `${base}/{childId}`, writes.roles, ({ params, bodyText }) => {
        parentOf(params.id);
        const object = state.childrenOf(writes.children, params.id).find(({ id }) => id === params.childId);
        if (!object) throw notFound(params.childId);
        const { id: _id, ...changes } = jsonObjectBody(bodyText);
        update(object, changes);
        state.addChild(writes.children, params.id, { ...object, ...changes, id: object.id });
        return { status: 204 };
      }),
    );
  return routes;
}

/**
 * The creations a restore of applications, service principals and administrative units makes,
 * with their children, as Microsoft Graph v1.0 answers them:
 * - `POST /applications` ("Create application": `displayName` required; 201 with a new `id` and a
 *   new `appId`; `passwordCredentials` are never taken, a secret is added by addPassword, and
 *   `keyCredentials` need their `key`);
 * - `POST /applications/{id}/owners/$ref` ("Add owner": a user or service principal) and
 *   `DELETE .../owners/{id}/$ref` ("Remove owner");
 * - `POST /applications/{id}/federatedIdentityCredentials` ("Create federatedIdentityCredential":
 *   `name`, `issuer`, `subject`, `audiences` required, the name unique in the app, at most 20),
 *   `PATCH` (the name cannot change) and `DELETE .../{id}`;
 * - `POST /applications/{id}/extensionProperties` ("Create extensionProperty": `name`,
 *   `dataType`, `targetObjects` required; Graph names it `extension_<appId without dashes>_<name>`)
 *   and `DELETE .../{id}`;
 * - `POST /servicePrincipals` ("Create servicePrincipal": `{ appId }` of an application of the
 *   tenant or of a multi-tenant app of another organization it had a service principal of, one
 *   service principal per appId; its names, app roles and scopes come from the app);
 * - `POST /servicePrincipals/{id}/appRoleAssignedTo` ("Grant an appRoleAssignment for a service
 *   principal": `principalId`, `resourceId` (this service principal), `appRoleId` (one of its app
 *   roles, or the default role) required; 400 for an assignment that exists) and
 *   `DELETE .../appRoleAssignedTo/{id}` ("Delete appRoleAssignedTo");
 * - `POST /directory/administrativeUnits` ("Create administrativeUnit": `displayName` required),
 *   `POST .../{id}/members/$ref` ("Add a member": user, group) and `DELETE .../members/{id}/$ref`;
 * - `POST /directory/administrativeUnits/{id}/scopedRoleMembers` ("Add a scopedRoleMember":
 *   `roleId`, `roleMemberInfo.id` required) and `DELETE .../scopedRoleMembers/{id}`.
 * Top-level objects are created through the change log (delta queries see them).
 */
export function applicationWriteRoutes(graph: GraphContext): Route[] {
  const { state } = graph;
  const applications = state.collection('applications');
  const servicePrincipals = state.collection('servicePrincipals');
  // Multi-tenant apps of other organizations the tenant has service principals of when the
  // simulator starts (Microsoft Graph, third-party apps): "Create servicePrincipal" takes their
  // appId too, the app-level part coming from their publisher's registration.
  const published = new Map(
    [...servicePrincipals.values()]
      .filter((sp) => sp.appOwnerOrganizationId !== state.tenantId)
      .map((sp) => [sp.appId, pick(sp, PUBLISHED_APP_PROPERTIES)]),
  );
  /** The properties a new service principal of `appId` takes from its application, or undefined. */
  const appPartOf = (appId: string): Record<string, unknown> | undefined => {
    const app = [...applications.values()].find((candidate) => candidate.appId === appId);
    if (!app) return published.get(appId);
    return {
      appId: app.appId,
      displayName: app.displayName,
      appDisplayName: app.displayName,
      appOwnerOrganizationId: state.tenantId,
      appRoles: app.appRoles ?? [],
      oauth2PermissionScopes:
        (app.api as { oauth2PermissionScopes?: unknown } | null)?.oauth2PermissionScopes ?? [],
      servicePrincipalNames: [app.appId, ...((app.identifierUris as string[] | undefined) ?? [])],
      signInAudience: app.signInAudience ?? 'AzureADMyOrg',
    };
  };
  return [
    graphRoute(graph, 'POST', '/v1.0/applications', ROLES.applications, ({ url, bodyText }) => {
      const { id: _id, appId: _appId, passwordCredentials: _secrets, ...body } = jsonObjectBody(bodyText);
      requireMembers(body, ['displayName']);
      const keys = (body.keyCredentials ?? []) as Array<Record<string, unknown>>;
      if (keys.some((key) => key.key === null || key.key === undefined))
        throw badRequest('The key of a key credential is required.');
      const app: GraphObject = {
        id: randomUUID(),
        appId: randomUUID(),
        ...APPLICATION_DEFAULTS,
        publisherDomain: state.domainNames()[0] ?? null,
        ...body,
        createdDateTime: new Date().toISOString(),
      };
      assertIdentifierUrisAllowed(state, app, (app.identifierUris ?? []) as string[]);
      state.create('applications', app);
      return created(graph, url, 'applications/$entity', app);
    }),
    ...linkWriteRoutes(graph, {
      parentPath: 'applications',
      parent: 'applications',
      segment: 'owners',
      children: 'applicationOwners',
      roles: ROLES.applications,
      accepts: ['#microsoft.graph.user', '#microsoft.graph.servicePrincipal'],
    }),
    ...containedRoutes(graph, {
      parentPath: 'applications',
      parent: 'applications',
      segment: 'federatedIdentityCredentials',
      children: 'federatedIdentityCredentials',
      roles: ROLES.applications,
      make(body, _app, siblings) {
        requireMembers(body, ['name', 'issuer', 'subject', 'audiences']);
        if (siblings.some(({ name }) => name === body.name))
          throw badRequest(`FederatedIdentityCredential with name ${String(body.name)} already exists.`);
        if (siblings.length >= 20)
          throw badRequest('An application can have at most 20 federated identity credentials.');
        return {
          id: randomUUID(),
          name: body.name,
          description: body.description ?? null,
          issuer: body.issuer,
          subject: body.subject,
          audiences: body.audiences,
        };
      },
      update(credential, changes) {
        if (changes.name !== undefined && changes.name !== credential.name)
          throw badRequest('The name of a federated identity credential cannot be changed.');
      },
    }),
    ...containedRoutes(graph, {
      parentPath: 'applications',
      parent: 'applications',
      segment: 'extensionProperties',
      children: 'extensionProperties',
      roles: ROLES.applications,
      make(body, app, siblings) {
        requireMembers(body, ['name', 'dataType', 'targetObjects']);
        const name = `extension_${String(app.appId).replace(/-/g, '')}_${String(body.name)}`;
        if (siblings.some((sibling) => sibling.name === name))
          throw badRequest(`An extension property named ${name} already exists.`);
        return {
          id: randomUUID(),
          name,
          appDisplayName: app.displayName ?? null,
          dataType: body.dataType,
          isMultiValued: body.isMultiValued ?? false,
          isSyncedFromOnPremises: false,
          targetObjects: body.targetObjects,
          deletedDateTime: null,
        };
      },
    }),
    graphRoute(graph, 'POST', '/v1.0/servicePrincipals', ROLES.applications, ({ url, bodyText }) => {
      const { id: _id, ...body } = jsonObjectBody(bodyText);
      requireMembers(body, ['appId']);
      const app = appPartOf(String(body.appId));
      if (!app)
        throw badRequest(
          `The appId '${String(body.appId)}' of the service principal does not reference a valid application object.`,
        );
      if ([...servicePrincipals.values()].some(({ appId }) => appId === body.appId))
        throw new GraphError(
          409,
          'Request_MultipleObjectsWithSameKeyValue',
          `The service principal cannot be created, updated, or restored because the service principal name ${String(body.appId)} is already in use.`,
        );
      const sp: GraphObject = { id: randomUUID(), ...SERVICE_PRINCIPAL_DEFAULTS, ...app, ...body };
      state.create('servicePrincipals', sp);
      return created(graph, url, 'servicePrincipals/$entity', sp);
    }),
    ...containedRoutes(graph, {
      parentPath: 'servicePrincipals',
      parent: 'servicePrincipals',
      segment: 'appRoleAssignedTo',
      children: 'appRoleAssignedTo',
      roles: ROLES.appRoleAssignments,
      make(body, resource, siblings) {
        requireMembers(body, ['principalId', 'resourceId', 'appRoleId']);
        if (body.resourceId !== resource.id)
          throw badRequest('The resourceId must be the id of the service principal addressed.');
        const principal = state.directoryObject(String(body.principalId));
        if (!principal) throw notFound(String(body.principalId));
        const roles = (resource.appRoles ?? []) as Array<{ id: string }>;
        if (body.appRoleId !== DEFAULT_APP_ROLE && !roles.some(({ id }) => id === body.appRoleId))
          throw badRequest('Permission being assigned was not found on application.');
        if (siblings.some((a) => a.principalId === body.principalId && a.appRoleId === body.appRoleId))
          throw badRequest('Permission being assigned already exists on the object.');
        return {
          id: randomUUID(),
          appRoleId: body.appRoleId,
          createdDateTime: new Date().toISOString(),
          deletedDateTime: null,
          principalDisplayName: principal.displayName ?? null,
          principalId: body.principalId,
          principalType: String(principal['@odata.type'])
            .replace('#microsoft.graph.', '')
            .replace(/^./, (c) => c.toUpperCase()),
          resourceDisplayName: resource.displayName ?? null,
          resourceId: resource.id,
        };
      },
    }),
    graphRoute(graph, 'POST', '/v1.0/directory/administrativeUnits', ROLES.units, ({ url, bodyText }) => {
      const { id: _id, ...body } = jsonObjectBody(bodyText);
      requireMembers(body, ['displayName']);
      const unit: GraphObject = { id: randomUUID(), ...UNIT_DEFAULTS, ...body };
      state.create('administrativeUnits', unit);
      return created(graph, url, 'directory/administrativeUnits/$entity', unit);
    }),
    ...linkWriteRoutes(graph, {
      parentPath: 'directory/administrativeUnits',
      parent: 'administrativeUnits',
      segment: 'members',
      children: 'administrativeUnitMembers',
      roles: ROLES.units,
      accepts: ['#microsoft.graph.user', '#microsoft.graph.group'],
    }),
    ...containedRoutes(graph, {
      parentPath: 'directory/administrativeUnits',
      parent: 'administrativeUnits',
      segment: 'scopedRoleMembers',
      children: 'scopedRoleMembers',
      roles: ROLES.scopedRoleMembers,
      make(body, unit, siblings) {
        requireMembers(body, ['roleId', 'roleMemberInfo']);
        const memberId = String((body.roleMemberInfo as Record<string, unknown>).id ?? '');
        const member = state.directoryObject(memberId);
        if (!member) throw notFound(memberId);
        if (
          siblings.some((s) => s.roleId === body.roleId && (s.roleMemberInfo as GraphObject).id === memberId)
        )
          throw badRequest('The scoped role membership already exists.');
        return {
          id: randomUUID(),
          administrativeUnitId: unit.id,
          roleId: body.roleId,
          roleMemberInfo: { id: memberId, displayName: member.displayName ?? null },
        };
      },
    }),
  ];
}
