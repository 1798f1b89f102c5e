import { manageScopes, readScopes } from '@libs/simulators/okta/auth/principal.js';
import { notFound, validationFailed } from '@libs/simulators/okta/http/okta-error.js';
import { empty, jsonText } from '@libs/simulators/kit/http/reply.js';
import { jsonBody } from '@libs/simulators/okta/http/request-body.js';
import type { RequestContext, Route } from '@libs/simulators/kit/http/router.js';
import type { OrgContext } from '@libs/simulators/okta/org-context.js';
import { PAGE_LIMITS } from '@libs/simulators/okta/query/page-limits.js';
import type { Entry, Json } from '@libs/simulators/okta/store/entry.js';
import { ID_PREFIX, oktaId, oktaTimestamp } from '@libs/simulators/okta/store/okta-ids.js';
import type { OrderedCollection } from '@libs/simulators/okta/store/ordered-collection.js';
import { pairKey, type OrgState } from '@libs/simulators/okta/store/org-state.js';
import { collectionRoutes } from './collection-routes.js';
import { requireText } from './validation.js';

/** A custom role or resource set by id or label (`{roleIdOrLabel}`, `{resourceSetIdOrLabel}`). */
function byIdOrLabel(collection: OrderedCollection<Entry>, idOrLabel: string, kind: string): Entry {
  const entry =
    collection.get(idOrLabel) ?? [...collection.valuesInOrder()].find((e) => e.data.label === idOrLabel);
  if (!entry) throw notFound(idOrLabel, kind);
  return entry;
}

/** A binding member from an href (`.../api/v1/users/{id}` or `.../groups/{id}`) the org knows. */
function memberFromHref(state: OrgState, href: unknown, id: string, now: string): Json {
  const match = typeof href === 'string' ? /\/api\/v1\/(users|groups)\/([^/]+)$/.exec(href) : null;
  const known = match && (match[1] === 'users' ? state.users.has(match[2]) : state.groups.has(match[2]));
  if (!match || !known) throw validationFailed('members', `members: Unknown user or group ${String(href)}`);
  return { id, created: now, lastUpdated: now, _links: { self: { href } } };
}

/**
 * Custom admin roles (`/api/v1/iam/roles`, `{ "roles": [...] }` paged by `_links.next`) with
 * their permissions (`/permissions`, keyed by label; created by POST to
 * `/permissions/{permissionType}` with 204), and resource sets (`/api/v1/iam/resource-sets`)
 * with their resources (POST one, PATCH `additions`; PUT replaces only the `conditions`,
 * replaceResourceSetResource) and bindings (a role bound to the set,
 * `{ role, members }`) and each binding's members (PATCH `additions`). Paths take an id or a
 * label where the API says `IdOrLabel`.
 */
export function iamRoutes(org: OrgContext): Route[] {
  const read = { kind: 'admin', scopes: readScopes('okta.roles') } as const;
  const write = { kind: 'admin', scopes: manageScopes('okta.roles') } as const;
  const { state } = org;
  const now = () => oktaTimestamp(org.now());
  const role = (idOrLabel: string) => byIdOrLabel(state.customRoles, idOrLabel, 'CustomRole');
  const set = (idOrLabel: string) => byIdOrLabel(state.resourceSets, idOrLabel, 'ResourceSet');
  const setId = (context: RequestContext) => String(set(context.params.resourceSetIdOrLabel).data.id);
  const permissionsOf = (context: RequestContext) =>
    state.rolePermissions.of(String(role(context.params.roleIdOrLabel).data.id));
  const addResource = (resourceSet: string, orn: unknown, conditions?: unknown) => {
    if (typeof orn !== 'string' || orn === '')
      throw validationFailed('resourceOrnOrUrl', 'resourceOrnOrUrl: The field cannot be left blank');
    const id = oktaId(ID_PREFIX.resourceSetResource);
    const at = now();
    const data: Json = { id, orn, created: at, lastUpdated: at, ...(conditions ? { conditions } : {}) };
    state.resourceSetResources.of(resourceSet).set(id, { data });
    return data;
  };
  const addMembers = (resourceSet: string, roleId: string, hrefs: unknown) => {
    if (!Array.isArray(hrefs)) throw validationFailed('members', 'members: The field cannot be left blank');
    const members = state.bindingMembers.of(pairKey(resourceSet, roleId));
    for (const href of hrefs) {
      const id = oktaId(ID_PREFIX.bindingMember);
      members.set(id, { data: memberFromHref(state, href, id, now()) });
    }
  };
  const bindingLinks = (resourceSet: string, roleId: string) => ({
    self: { href: `${org.baseUrl}/api/v1/iam/resource-sets/${resourceSet}/bindings/${roleId}` },
    bindings: { href: `${org.baseUrl}/api/v1/iam/resource-sets/${resourceSet}/bindings` },
    'resource-set': { href: `${org.baseUrl}/api/v1/iam/resource-sets/${resourceSet}` },
  });

  return [
    ...collectionRoutes(
      {
        type: 'custom_admin_role',
        kindName: 'CustomRole',
        path: '/api/v1/iam/roles',
        idParam: 'roleIdOrLabel',
        idPrefix: ID_PREFIX.customRole,
        scopeFamily: 'okta.roles',
        limits: PAGE_LIMITS.iam,
        wrap: 'roles',
        collection: (o) => o.state.customRoles,
        defaults: (body, { org: o, id }) => {
          requireText(body, 'label');
          requireText(body, 'description');
          if (!Array.isArray(body.permissions) || body.permissions.length === 0)
            throw validationFailed('permissions', 'permissions: The field cannot be left blank');
          const at = oktaTimestamp(o.now());
          for (const label of body.permissions)
            o.state.rolePermissions
              .of(id)
              .set(String(label), { data: { label, created: at, lastUpdated: at, conditions: null } });
          // Recorded createIamRole answers: `isCloneable` false for a role an admin made.
          return { isCloneable: false };
        },
        stored: ({ permissions: _permissions, ...kept }) => kept,
        createStatus: 200,
        // A role still bound in a resource set is assigned to admins: refused, as the Admin Console
        // asks to remove a role's assignments first (no recording settles the API's answer).
        guardDelete: (role) => {
          for (const [, bindings] of org.state.resourceSetBindings.parents())
            if (bindings.has(String(role.id)))
              return validationFailed('role', 'role: The role is assigned; remove its assignments first');
          return undefined;
        },
        cascadeDelete: (o, id) => o.state.rolePermissions.drop(id),
        deleteStatus: 204,
      },
      org,
    ),
    {
      method: 'GET',
      template: '/api/v1/iam/roles/{roleIdOrLabel}/permissions',
      access: read,
      handle: (context) =>
        jsonText(
          200,
          JSON.stringify({ permissions: [...permissionsOf(context).valuesInOrder()].map((e) => e.data) }),
        ),
    },
    {
      method: 'GET',
      template: '/api/v1/iam/roles/{roleIdOrLabel}/permissions/{permissionType}',
      access: read,
      handle: (context) => {
        const entry = permissionsOf(context).get(context.params.permissionType);
        if (!entry) throw notFound(context.params.permissionType, 'Permission');
        return jsonText(200, JSON.stringify(entry.data));
      },
    },
    ...(['POST', 'PUT'] as const).map((method): Route => ({
      method,
      template: '/api/v1/iam/roles/{roleIdOrLabel}/permissions/{permissionType}',
      access: write,
      handle: (context) => {
        const permissions = permissionsOf(context);
        const label = context.params.permissionType;
        const current = permissions.get(label);
        if (method === 'PUT' && !current) throw notFound(label, 'Permission');
        const body = context.bodyText.trim() === '' ? {} : jsonBody(context);
        const at = now();
        const data: Json = { label, created: current?.data.created ?? at, lastUpdated: at };
        // Recorded permissions without conditions answer `conditions: null`.
        data.conditions = body.conditions ?? null;
        permissions.set(label, { data });
        return method === 'POST' ? empty(204) : jsonText(200, JSON.stringify(data));
      },
    })),
    {
      method: 'DELETE',
      template: '/api/v1/iam/roles/{roleIdOrLabel}/permissions/{permissionType}',
      access: write,
      handle: (context) => {
        if (!permissionsOf(context).delete(context.params.permissionType))
          throw notFound(context.params.permissionType, 'Permission');
        return empty(204);
      },
    },
    ...collectionRoutes(
      {
        type: 'resource_set',
        kindName: 'ResourceSet',
        path: '/api/v1/iam/resource-sets',
        idParam: 'resourceSetIdOrLabel',
        idPrefix: ID_PREFIX.resourceSet,
        scopeFamily: 'okta.roles',
        limits: PAGE_LIMITS.iam,
        wrap: 'resource-sets',
        collection: (o) => o.state.resourceSets,
        defaults: (body, { id }) => {
          requireText(body, 'label');
          requireText(body, 'description');
          if (!Array.isArray(body.resources))
            throw validationFailed('resources', 'resources: The field cannot be left blank');
          for (const orn of body.resources) addResource(id, orn);
          return {};
        },
        stored: ({ resources: _resources, ...kept }) => kept,
        createStatus: 200,
        cascadeDelete: (o, id) => {
          o.state.resourceSetResources.drop(id);
          for (const [roleId] of o.state.resourceSetBindings.peek(id)?.entries() ?? [])
            o.state.bindingMembers.drop(pairKey(id, roleId));
          o.state.resourceSetBindings.drop(id);
        },
        deleteStatus: 204,
      },
      org,
    ),
    ...collectionRoutes(
      {
        type: 'resource_set_resource',
        kindName: 'ResourceSetResource',
        path: '/api/v1/iam/resource-sets/{resourceSetIdOrLabel}/resources',
        idParam: 'resourceId',
        idPrefix: ID_PREFIX.resourceSetResource,
        scopeFamily: 'okta.roles',
        limits: PAGE_LIMITS.iamResources,
        wrap: 'resources',
        collection: (o, params) => o.state.resourceSetResources.of(setId({ params } as RequestContext)),
        defaults: (body) => ({ orn: requireText(body, 'resourceOrnOrUrl') }),
        stored: ({ resourceOrnOrUrl: _orn, ...kept }) => kept,
        createStatus: 200,
        deleteStatus: 204,
      },
      org,
    ).filter((route) => route.method !== 'PUT'),
    {
      method: 'PUT',
      template: '/api/v1/iam/resource-sets/{resourceSetIdOrLabel}/resources/{resourceId}',
      access: write,
      handle: (context) => {
        const resources = state.resourceSetResources.of(setId(context));
        const current = resources.get(context.params.resourceId);
        if (!current) throw notFound(context.params.resourceId, 'ResourceSetResource');
        const { conditions } = jsonBody(context);
        const { conditions: _replaced, ...kept } = current.data;
        const data: Json = { ...kept, ...(conditions ? { conditions } : {}), lastUpdated: now() };
        resources.set(context.params.resourceId, { data });
        return jsonText(200, JSON.stringify(data));
      },
    },
    {
      method: 'PATCH',
      template: '/api/v1/iam/resource-sets/{resourceSetIdOrLabel}/resources',
      access: write,
      handle: (context) => {
        const resourceSet = set(context.params.resourceSetIdOrLabel);
        const additions = jsonBody(context).additions;
        if (!Array.isArray(additions))
          throw validationFailed('additions', 'additions: The field cannot be left blank');
        for (const orn of additions) addResource(String(resourceSet.data.id), orn);
        return jsonText(200, JSON.stringify(resourceSet.data));
      },
    },
    ...collectionRoutes(
      {
        type: 'resource_set_binding',
        kindName: 'ResourceSetBinding',
        path: '/api/v1/iam/resource-sets/{resourceSetIdOrLabel}/bindings',
        idParam: 'roleIdOrLabel',
        idPrefix: '',
        scopeFamily: 'okta.roles',
        limits: PAGE_LIMITS.iam,
        wrap: 'roles',
        stamps: [],
        collection: (o, params) => o.state.resourceSetBindings.of(setId({ params } as RequestContext)),
        keyFromBody: (body) => String(state.customRoles.get(String(body.role ?? ''))?.data.id ?? ''),
        defaults: (body, { params, id }) => {
          if (id === '') throw validationFailed('role', 'role: Must name a custom role');
          const resourceSet = setId({ params } as RequestContext);
          addMembers(resourceSet, id, body.members);
          return { id, _links: bindingLinks(resourceSet, id) };
        },
        stored: () => ({}),
        createStatus: 200,
        updateMethods: [],
        cascadeDelete: (o, roleId, params) =>
          o.state.bindingMembers.drop(pairKey(setId({ params } as RequestContext), roleId)),
        deleteStatus: 204,
      },
      org,
    ),
    ...collectionRoutes(
      {
        type: 'resource_set_binding_member',
        kindName: 'ResourceSetBindingMember',
        path: '/api/v1/iam/resource-sets/{resourceSetIdOrLabel}/bindings/{roleIdOrLabel}/members',
        idParam: 'memberId',
        idPrefix: ID_PREFIX.bindingMember,
        scopeFamily: 'okta.roles',
        limits: PAGE_LIMITS.iam,
        wrap: 'members',
        collection: (o, params) => {
          const resourceSet = setId({ params } as RequestContext);
          const roleId = String(role(params.roleIdOrLabel).data.id);
          if (!o.state.resourceSetBindings.peek(resourceSet)?.has(roleId))
            throw notFound(roleId, 'ResourceSetBinding');
          return o.state.bindingMembers.of(pairKey(resourceSet, roleId));
        },
        createStatus: 200,
        updateMethods: [],
        deleteStatus: 204,
      },
      org,
    ).filter((route) => route.method !== 'POST'),
    {
      method: 'PATCH',
      template: '/api/v1/iam/resource-sets/{resourceSetIdOrLabel}/bindings/{roleIdOrLabel}/members',
      access: write,
      handle: (context) => {
        const resourceSet = setId(context);
        const roleId = String(role(context.params.roleIdOrLabel).data.id);
        if (!state.resourceSetBindings.peek(resourceSet)?.has(roleId))
          throw notFound(roleId, 'ResourceSetBinding');
        addMembers(resourceSet, roleId, jsonBody(context).additions);
        return jsonText(200, JSON.stringify({ id: roleId, _links: bindingLinks(resourceSet, roleId) }));
      },
    },
  ];
}
