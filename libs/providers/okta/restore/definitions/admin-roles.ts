import { ProviderError, ProviderRequestError } from '@libs/providers/provider-errors.js';
import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { collectionDefinition } from '@libs/providers/okta/restore/collection-definition.js';
import {
  createdId,
  idParts,
  pick,
  type RestoreDefinition,
  type WriteContext,
} from '@libs/providers/okta/restore/restore-definition.js';
import { adminRoleAssignment } from './admin-role-assignments.js';
import { adminRoleTarget } from './admin-role-targets.js';

const ROLES = '/api/v1/iam/roles';
const RESOURCE_SETS = '/api/v1/iam/resource-sets';
const RESOURCES = `${RESOURCE_SETS}/{resourceSetIdOrLabel}/resources`;
const MEMBERS = `${RESOURCE_SETS}/{resourceSetIdOrLabel}/bindings/{roleIdOrLabel}/members`;

const labelOf = (data: OktaObject) => (typeof data.label === 'string' ? data.label : null);

/**
 * Custom admin roles (`/api/v1/iam/roles`): labels are unique (the natural key; paths take
 * `roleIdOrLabel`), replaceRole sets the label and description. createRole requires at least one
 * permission (CreateIamRoleRequest `permissions`), so a role is created with the permissions the
 * backup holds for it (`createdWith`); their conditions follow as permission updates.
 */
const customAdminRole = collectionDefinition(
  { path: ROLES, params: ['roleIdOrLabel'], body: (writable) => writable },
  {
    writable: (data) => pick(data, ['label', 'description']),
    naturalKey: (record) => labelOf(record.data),
    createdWith: { type: 'custom_admin_role_permission', component: 0 },
    notes: [
      'A custom role comes back with the permissions the backup holds for it: Okta requires at least one, so a role whose backup holds none is not re-created',
    ],
    async create(record, context, together) {
      // Okta refuses a role without permissions (400 E0000001 "Api validation failed:
      // permissions"): nothing is sent that would only be refused.
      if (together.length === 0)
        throw new ProviderError(
          `The backup holds no permission of custom role ${String(record.data.label ?? record.id)}: Okta requires at least one to create a role (createRole, CreateIamRoleRequest.permissions)`,
          'restore_incomplete_backup',
        );
      const answer = await context.api.write({
        method: 'POST',
        template: ROLES,
        body: {
          ...pick(record.data, ['label', 'description']),
          permissions: together.map((permissionId) => permissionParams(permissionId).permissionType),
        },
        signal: context.signal,
      });
      return { id: createdId(answer, 'a custom admin role') };
    },
  },
);

/** A permission's path parameters from its record id `<roleId>:<permissionType>`. */
function permissionParams(recordId: string) {
  const [roleIdOrLabel, ...permission] = idParts(recordId);
  return { roleIdOrLabel, permissionType: permission.join(':') };
}

/** The conditions a permission or resource has; Okta answers none as `null` (recorded listRolePermissions). */
const conditionsOf = (data: OktaObject) => data.conditions ?? null;

/** createRolePermission / replaceRolePermission (CreateUpdateIamRolePermissionRequest: `conditions`). */
async function writePermission(
  method: 'POST' | 'PUT',
  recordId: string,
  data: OktaObject,
  context: WriteContext,
) {
  const conditions = conditionsOf(data);
  await context.api.write({
    method,
    template: `${ROLES}/{roleIdOrLabel}/permissions/{permissionType}`,
    params: permissionParams(recordId),
    body: conditions === null ? {} : { conditions },
    signal: context.signal,
  });
}

/** A custom role's permissions, named by their type: created (204), replaced and deleted one by one. */
const customAdminRolePermission: RestoreDefinition = {
  writable: (data) => ({ conditions: conditionsOf(data) }),
  async create(record, context) {
    await writePermission('POST', record.id, record.data, context);
    return { id: record.id };
  },
  async update(record, live, context) {
    await writePermission('PUT', live.id, record.data, context);
    return [];
  },
  async remove(live, context) {
    await context.api.write({
      method: 'DELETE',
      template: `${ROLES}/{roleIdOrLabel}/permissions/{permissionType}`,
      params: permissionParams(live.id),
      okOn: [404],
      signal: context.signal,
    });
  },
};

/**
 * Resource sets (`/api/v1/iam/resource-sets`): unique labels, replaceResourceSet sets the label
 * and description. createResourceSet takes the resources too, but a record holds none (they are
 * resource_set_resource records, added next), so a set is created with an empty list.
 */
const resourceSet = collectionDefinition(
  { path: RESOURCE_SETS, params: ['resourceSetIdOrLabel'], body: (writable) => writable },
  {
    writable: (data) => pick(data, ['label', 'description']),
    naturalKey: (record) => labelOf(record.data),
    async create(record, context) {
      const answer = await context.api.write({
        method: 'POST',
        template: RESOURCE_SETS,
        body: { ...pick(record.data, ['label', 'description']), resources: [] },
        signal: context.signal,
      });
      return { id: createdId(answer, 'a resource set') };
    },
  },
);

/**
 * The id of what an addition made, found in the list it joined (PATCH additions answer the
 * parent, not the new item).
 * @throws ProviderRequestError when the list has no item `match` accepts
 */
async function findAdded(
  list: { template: string; params: Record<string, string>; itemsKey: string },
  match: (item: OktaObject) => boolean,
  what: string,
  context: WriteContext,
): Promise<string> {
  for await (const page of context.api.pages({ ...list, signal: context.signal })) {
    const found = page.find(match);
    if (found) return createdId(found, what);
  }
  throw new ProviderRequestError(`Okta added ${what} but does not list it`, 200);
}

/**
 * A resource set's resources, ORNs naming groups, apps or users (rewritten through the id map
 * like any id). addResourceSetResource (POST) takes one resource with its conditions and answers
 * it; without conditions, addResourceSetResources (PATCH `additions`) adds it and answers the
 * set, so the new resource is found by its ORN. replaceResourceSetResource sets the conditions.
 */
const resourceSetResource: RestoreDefinition = {
  writable: (data) => ({ orn: data.orn, conditions: conditionsOf(data) }),
  naturalKey: (record) =>
    typeof record.data.orn === 'string' ? `${idParts(record.id)[0]}:${record.data.orn}` : null,
  async create(record, context) {
    const [setId] = idParts(record.id);
    const params = { resourceSetIdOrLabel: setId };
    const conditions = conditionsOf(record.data);
    const write = { template: RESOURCES, params, signal: context.signal };
    if (conditions !== null) {
      const answer = await context.api.write({
        ...write,
        method: 'POST',
        body: { resourceOrnOrUrl: record.data.orn, conditions },
      });
      return { id: `${setId}:${createdId(answer, 'a resource set resource')}` };
    }
    await context.api.write({ ...write, method: 'PATCH', body: { additions: [record.data.orn] } });
    const list = { ...write, itemsKey: 'resources' };
    const orn = record.data.orn;
    return {
      id: `${setId}:${await findAdded(list, (item) => item.orn === orn, `resource ${String(orn)}`, context)}`,
    };
  },
  async update(record, live, context) {
    const [resourceSetIdOrLabel, resourceId] = idParts(live.id);
    const conditions = conditionsOf(record.data);
    await context.api.write({
      method: 'PUT',
      template: `${RESOURCES}/{resourceId}`,
      params: { resourceSetIdOrLabel, resourceId },
      body: conditions === null ? {} : { conditions },
      signal: context.signal,
    });
    return [];
  },
  async remove(live, context) {
    const [resourceSetIdOrLabel, resourceId] = idParts(live.id);
    await context.api.write({
      method: 'DELETE',
      template: `${RESOURCES}/{resourceId}`,
      params: { resourceSetIdOrLabel, resourceId },
      okOn: [404],
      signal: context.signal,
    });
  },
};

/**
 * Bindings of a custom role to a resource set (`<setId>:<roleId>`, the binding's `id` is the
 * role's): a link, nothing to change. createResourceSetBinding takes the members too; a record
 * holds none (they are resource_set_binding_member records, added next), so a binding is created
 * without members.
 */
const resourceSetBinding = collectionDefinition(
  {
    path: `${RESOURCE_SETS}/{resourceSetIdOrLabel}/bindings`,
    params: ['resourceSetIdOrLabel', 'roleIdOrLabel'],
    updateMethod: null,
    body: (writable) => ({ ...writable, members: [] }),
    createdKey: (_answer, record) => idParts(record.id)[1],
  },
  { writable: (data) => ({ role: data.id }) },
);

/** The member's `_links.self.href`: the user or group it is (ResourceSetBindingMember). */
function memberHref(data: OktaObject): string | null {
  const href = (data._links as { self?: { href?: unknown } } | undefined)?.self?.href;
  return typeof href === 'string' ? href : null;
}

/** `/api/v1/users/{id}` or `/api/v1/groups/{id}` of a member, whatever the org's host. */
function memberPath(data: OktaObject): string | null {
  return /\/api\/v1\/(?:users|groups)\/[^/?#]+$/.exec(memberHref(data) ?? '')?.[0] ?? null;
}

/**
 * Members of a binding (`<setId>:<roleId>:<memberId>`): each names a user or group by its link,
 * which is all a member holds (and what its natural key is). addMembersToBinding (PATCH
 * `additions`) answers the binding, so the new member is found by its link.
 */
const resourceSetBindingMember: RestoreDefinition = {
  writable: (data) => ({ member: memberPath(data) }),
  naturalKey(record) {
    const [setId, roleId] = idParts(record.id);
    const path = memberPath(record.data);
    return path === null ? null : `${setId}:${roleId}:${path}`;
  },
  async create(record, context) {
    const [resourceSetIdOrLabel, roleIdOrLabel] = idParts(record.id);
    const write = {
      template: MEMBERS,
      params: { resourceSetIdOrLabel, roleIdOrLabel },
      signal: context.signal,
    };
    await context.api.write({ ...write, method: 'PATCH', body: { additions: [memberHref(record.data)] } });
    const path = memberPath(record.data);
    const list = { ...write, itemsKey: 'members' };
    const id = await findAdded(list, (item) => memberPath(item) === path, `binding member ${path}`, context);
    return { id: [resourceSetIdOrLabel, roleIdOrLabel, id].join(':') };
  },
  async remove(live, context) {
    const [resourceSetIdOrLabel, roleIdOrLabel, memberId] = idParts(live.id);
    await context.api.write({
      method: 'DELETE',
      template: `${MEMBERS}/{memberId}`,
      params: { resourceSetIdOrLabel, roleIdOrLabel, memberId },
      okOn: [404],
      signal: context.signal,
    });
  },
};

/** How a restore writes the admin role types (Roles, Resource Sets, Role Assignments, Role Targets APIs). */
export function adminRoleDefinitions() {
  return {
    custom_admin_role: customAdminRole,
    custom_admin_role_permission: customAdminRolePermission,
    resource_set: resourceSet,
    resource_set_resource: resourceSetResource,
    resource_set_binding: resourceSetBinding,
    resource_set_binding_member: resourceSetBindingMember,
    admin_role_assignment: adminRoleAssignment,
    admin_role_target: adminRoleTarget,
  } satisfies Record<string, RestoreDefinition>;
}
