import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import { field, noName } from '@libs/providers/kit/resource-catalog.js';
import type { ParentRef, ResourceDefinition } from './okta-catalog-types.js';
import { DIRECTORY_DEFINITIONS } from './okta-directory-catalog.js';
import { PAGE_LIMITS } from './okta-endpoints.js';
import {
  ROLE_TARGET_KINDS,
  roleAssignmentKeys,
  roleTargetData,
  roleTargetKey,
  roleTargetsParams,
  roleTargetsTemplate,
} from './okta-role-targets.js';

const authServer = (parent: ParentRef) => ({ authServerId: parent.id });

/** `<a>:<b>` parent record ids of grandchildren (brand templates, resource set bindings). */
const pair = (parent: ParentRef): [string, string] => {
  const [first, second] = parent.id.split(':');
  return [first, second];
};

/** The customized pages of a brand (Customized pages API), each 404 until customized. */
const BRAND_PAGES = [
  { key: 'sign-in', template: '/api/v1/brands/{brandId}/pages/sign-in/customized' },
  { key: 'error', template: '/api/v1/brands/{brandId}/pages/error/customized' },
  { key: 'sign-out', template: '/api/v1/brands/{brandId}/pages/sign-out/customized' },
];

/** How each Okta type is listed: endpoints from management.yaml, record names per resource-types.ts. */
/**
 * How each Okta type is collected, in the kit's vocabulary (kit/resource-catalog.ts): endpoints
 * from management.yaml, record names per resource-types.ts. The directory's types are in
 * okta-directory-catalog.ts.
 */
export const RESOURCE_DEFINITIONS = {
  ...DIRECTORY_DEFINITIONS,
  event_hook: { kind: 'top', template: '/api/v1/eventHooks', name: field('name') },
  inline_hook: { kind: 'top', template: '/api/v1/inlineHooks', name: field('name') },
  authenticator: { kind: 'top', template: '/api/v1/authenticators', name: field('name') },
  behavior: { kind: 'top', template: '/api/v1/behaviors', name: field('name') },
  policy: { kind: 'policies', name: field('name') },
  policy_rule: {
    kind: 'child',
    parent: 'policy',
    template: '/api/v1/policies/{policyId}/rules',
    params: (policy) => ({ policyId: policy.id }),
    name: field('name'),
  },
  authorization_server: {
    kind: 'top',
    template: '/api/v1/authorizationServers',
    query: { limit: PAGE_LIMITS.authorizationServers },
    name: field('name'),
  },
  authorization_server_scope: {
    kind: 'child',
    parent: 'authorization_server',
    template: '/api/v1/authorizationServers/{authServerId}/scopes',
    query: { limit: PAGE_LIMITS.authorizationServerScopes },
    params: authServer,
    name: field('name'),
  },
  authorization_server_claim: {
    kind: 'child',
    parent: 'authorization_server',
    template: '/api/v1/authorizationServers/{authServerId}/claims',
    params: authServer,
    name: field('name'),
  },
  authorization_server_policy: {
    kind: 'child',
    parent: 'authorization_server',
    template: '/api/v1/authorizationServers/{authServerId}/policies',
    params: authServer,
    name: field('name'),
  },
  authorization_server_policy_rule: {
    kind: 'child',
    parent: 'authorization_server_policy',
    template: '/api/v1/authorizationServers/{authServerId}/policies/{policyId}/rules',
    // The parent record id is `<authServerId>:<policyId>`; Okta ids never contain ':'.
    params: (parent) => {
      const [authServerId, policyId] = parent.id.split(':');
      return { authServerId, policyId };
    },
    name: field('name'),
  },
  // listNetworkZones documents no maximum (default -1: no limit), so `limit` is left out.
  network_zone: { kind: 'top', template: '/api/v1/zones', name: field('name') },
  trusted_origin: {
    kind: 'top',
    template: '/api/v1/trustedOrigins',
    query: { limit: PAGE_LIMITS.trustedOrigins },
    name: field('name'),
  },
  brand: {
    kind: 'top',
    template: '/api/v1/brands',
    query: { limit: PAGE_LIMITS.brands },
    name: field('name'),
  },
  brand_theme: {
    kind: 'child',
    parent: 'brand',
    template: '/api/v1/brands/{brandId}/themes',
    params: (brand) => ({ brandId: brand.id }),
    name: noName,
  },
  email_template: {
    kind: 'child',
    parent: 'brand',
    template: '/api/v1/brands/{brandId}/templates/email',
    query: { limit: PAGE_LIMITS.brands, expand: 'settings,customizationCount' },
    params: (brand) => ({ brandId: brand.id }),
    key: field('name'),
    remember: (template) => {
      const count = (template._embedded as { customizationCount?: unknown } | undefined)?.customizationCount;
      return { customizations: typeof count === 'number' ? String(count) : 'unknown' };
    },
    name: field('name'),
  },
  email_customization: {
    kind: 'child',
    parent: 'email_template',
    template: '/api/v1/brands/{brandId}/templates/email/{templateName}/customizations',
    query: { limit: PAGE_LIMITS.brands },
    // Templates never customized are skipped without a request.
    applies: (template) => template.keys.customizations !== '0',
    params: (template) => {
      const [brandId, templateName] = pair(template);
      return { brandId, templateName };
    },
    name: field('subject'),
  },
  brand_page: {
    kind: 'child_objects',
    parent: 'brand',
    objects: BRAND_PAGES,
    params: (brand) => ({ brandId: brand.id }),
    name: noName,
  },
  custom_domain: { kind: 'top', template: '/api/v1/domains', itemsKey: 'domains', name: field('domain') },
  custom_admin_role: { kind: 'top', template: '/api/v1/iam/roles', itemsKey: 'roles', name: field('label') },
  custom_admin_role_permission: {
    kind: 'child',
    parent: 'custom_admin_role',
    template: '/api/v1/iam/roles/{roleIdOrLabel}/permissions',
    itemsKey: 'permissions',
    params: (role) => ({ roleIdOrLabel: role.id }),
    key: field('label'),
    name: field('label'),
  },
  resource_set: {
    kind: 'top',
    template: '/api/v1/iam/resource-sets',
    itemsKey: 'resource-sets',
    name: field('label'),
  },
  resource_set_resource: {
    kind: 'child',
    parent: 'resource_set',
    template: '/api/v1/iam/resource-sets/{resourceSetIdOrLabel}/resources',
    query: { limit: PAGE_LIMITS.iamResources },
    itemsKey: 'resources',
    params: (set) => ({ resourceSetIdOrLabel: set.id }),
    name: field('orn'),
  },
  resource_set_binding: {
    kind: 'child',
    parent: 'resource_set',
    template: '/api/v1/iam/resource-sets/{resourceSetIdOrLabel}/bindings',
    itemsKey: 'roles',
    params: (set) => ({ resourceSetIdOrLabel: set.id }),
    name: noName,
  },
  resource_set_binding_member: {
    kind: 'child',
    parent: 'resource_set_binding',
    template: '/api/v1/iam/resource-sets/{resourceSetIdOrLabel}/bindings/{roleIdOrLabel}/members',
    itemsKey: 'members',
    params: (binding) => {
      const [resourceSetIdOrLabel, roleIdOrLabel] = pair(binding);
      return { resourceSetIdOrLabel, roleIdOrLabel };
    },
    name: noName,
  },
  admin_role_assignment: {
    kind: 'admin_roles',
    name: field('label'),
    remember: roleAssignmentKeys,
  },
  admin_role_target: {
    kind: 'child',
    parent: 'admin_role_assignment',
    template: (assignment) => roleTargetsTemplate(assignment.keys),
    // Only standard roles Okta limits take targets: one list per such assignment, none for the rest.
    applies: (assignment) => assignment.keys.roleType in ROLE_TARGET_KINDS,
    params: (assignment) => roleTargetsParams(assignment.id, assignment.keys),
    query: { limit: PAGE_LIMITS.roleTargets },
    key: roleTargetKey,
    name: (target) =>
      field('profile', 'name')(target) ?? field('displayName')(target) ?? field('name')(target),
    data: (assignment, targetId) => roleTargetData(assignment.keys, targetId),
  },
} satisfies Record<OktaResourceType, ResourceDefinition>;
