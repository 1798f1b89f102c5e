import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import type { OktaObject } from './okta-api-client.js';
import {
  ROLE_TARGET_KINDS,
  roleAssignmentKeys,
  roleTargetData,
  roleTargetKey,
  roleTargetsParams,
  roleTargetsTemplate,
} from './okta-role-targets.js';

/**
 * Page sizes: each list endpoint's documented maximum in Okta's OpenAPI description
 * (management.yaml, the `limit` parameter of the list operation). Where the description gives
 * no maximum, the documented default is sent or `limit` is left out, and the `next` links
 * still walk every page.
 */
export const PAGE_LIMITS = {
  /** listUsers: default 200, the Users API maximum. */
  users: 200,
  /** listGroups: maximum 10000. */
  groups: 10000,
  /** listGroupUsers: default 1000, no maximum documented. */
  groupUsers: 1000,
  /** listGroupRules: maximum 200. */
  groupRules: 200,
  /** listApplications: maximum 200. */
  apps: 200,
  /** listApplicationUsers (`queryAppLimit`): maximum 500. */
  appUsers: 500,
  /** listApplicationGroupAssignments (`queryGroupAssignmentLimit`): maximum 200. */
  appGroups: 200,
  /** listAuthorizationServers: "Maximum value: 200". */
  authorizationServers: 200,
  /** listOAuth2Scopes: maximum 200. */
  authorizationServerScopes: 200,
  /** listTrustedOrigins: maximum 200. */
  trustedOrigins: 200,
  /** listGroupOwners: default 1000, no maximum documented. */
  groupOwners: 1000,
  /** listIdentityProviders: maximum 200. */
  identityProviders: 200,
  /** listProfileMappings: maximum 200. */
  profileMappings: 200,
  /** listBrands, listEmailTemplates, listEmailCustomizations: maximum 200. */
  brands: 200,
  /** listUsersWithRoleAssignments, listResourceSetResources: default 100, no maximum documented. */
  iamResources: 100,
  /** listGroupTargetsForRole, listApplicationTargetsFor...Role (`queryLimit`): maximum 200. */
  roleTargets: 200,
} as const;

/**
 * Every policy type of the OpenAPI `PolicyType` enum, each listed with
 * `GET /api/v1/policies?type=T` (the parameter is required). Orgs reject types they do not have
 * (Classic orgs have no ACCESS_POLICY, EA types need their feature) with 400: skipped.
 */
export const POLICY_TYPES = [
  'OKTA_SIGN_ON',
  'PASSWORD',
  'MFA_ENROLL',
  'IDP_DISCOVERY',
  'ACCESS_POLICY',
  'PROFILE_ENROLLMENT',
  'POST_AUTH_SESSION',
  'ENTITY_RISK',
  'DEVICE_SIGNAL_COLLECTION',
  'SESSION_VIOLATION_DETECTION',
  'CLIENT_UPDATE',
  'IDENTITY_CLAIM_SOURCING',
] as const;

/** A record's human label from its Okta object. */
type Namer = (object: OktaObject) => string | null;

/**
 * A parent record as its children need it: the record id (`<id>` or `<parentId>:<id>`) and
 * values taken from the parent object by its definition's `remember` (a schema id from a link,
 * an app's sign-on mode...).
 */
export interface ParentRef {
  id: string;
  keys: Readonly<Record<string, string>>;
}

/** Collection of a type whose records can be fetched as changes since an instant. */
export interface Incremental {
  /**
   * Top-level types: the timestamp properties of a change; the listing is
   * `filter=<a> gt "<since>" or <b> gt "<since>"`.
   */
  fields?: readonly string[];
  /**
   * Child types: the parent's timestamp property; only parents with `<field> gt "<since>"`
   * have their children listed (in full), and the part says which (`children_of`).
   */
  parentField?: string;
}

/** Shared by list definitions. */
interface Listing {
  template: string;
  query?: Record<string, string | number>;
  /** The list is `{ [itemsKey]: [...] }` paged through `_links.next` (IAM APIs). */
  itemsKey?: string;
  name: Namer;
  /** The object's own key when it is not `id` (linked objects: `primary.name`). */
  key?: Namer;
  /** Values children need from this object, kept with its id while it streams. */
  remember?: (object: OktaObject) => Record<string, string>;
  incremental?: Incremental;
}

/** A type listed at one endpoint of the org. */
export interface TopLevelDefinition extends Listing {
  kind: 'top';
  /** Each listed item is a summary: the record is `GET detail` with `{param}` = its id. */
  detail?: { template: string; param: string };
}

/** A type that is one object of the org (`GET /api/v1/meta/schemas/group/default`). */
export interface SingleDefinition {
  kind: 'single';
  template: string;
  /** The record id. */
  id: string;
  name: Namer;
}

/**
 * A type listed under each object of a parent type. The record id is `<parentRecordId>:<key>`
 * (okta-resource-types.ts), the parent record id giving the path parameters.
 */
export interface ChildDefinition extends Omit<Listing, 'template'> {
  kind: 'child';
  parent: OktaResourceType;
  /** The list endpoint; chosen per parent where it depends on it (a role assignment's targets). */
  template: string | ((parent: ParentRef) => string);
  /** Path parameters from the parent. */
  params: (parent: ParentRef) => Record<string, string>;
  /** Parents that have none of these children are skipped without a request. */
  applies?: (parent: ParentRef) => boolean;
  /** Statuses meaning "no children here" (default 404: parent deleted since it was listed). */
  emptyOn?: readonly number[];
  /** The record's data when it is not the object itself; `childId` is the object's key. */
  data?: (parent: ParentRef, childId: string) => Record<string, unknown>;
}

/**
 * A type made of fixed objects under each parent, each at its own endpoint (a brand's sign-in
 * and error pages, an app's user schema). The record id is `<parentRecordId>:<key>`; an object
 * answering one of `emptyOn` (404: never customized, or parent gone) has no record.
 */
export interface ChildObjectsDefinition {
  kind: 'child_objects';
  parent: OktaResourceType;
  objects: ReadonlyArray<{ key: string; template: string }>;
  params: (parent: ParentRef) => Record<string, string>;
  applies?: (parent: ParentRef) => boolean;
  emptyOn?: readonly number[];
  name: Namer;
}

/**
 * A type read from a parent's remembered values, without a request of its own (the sign-on
 * policy an app links to).
 */
export interface DerivedDefinition {
  kind: 'derived';
  parent: OktaResourceType;
  /** The child's key and data, or null when the parent has none. */
  derive: (parent: ParentRef) => { key: string; data: Record<string, unknown> } | null;
}

/** Types with their own collection rules (two user queries, one query per policy type). */
export interface SpecialDefinition {
  kind: 'users' | 'policies';
  name: Namer;
  remember?: undefined;
  incremental?: Incremental;
}

/**
 * Admin role assignments (OktaCollector.adminRoles): of users, found through
 * `/api/v1/iam/assignees/users`, and of groups, found through the groups' stats, so that only
 * admins are asked for their roles.
 */
export interface AdminRolesDefinition {
  kind: 'admin_roles';
  name: Namer;
  /** Values children need from the assignment (its targets: who holds it, which role). */
  remember: (object: OktaObject) => Record<string, string>;
}

export type ResourceDefinition =
  | TopLevelDefinition
  | SingleDefinition
  | ChildDefinition
  | ChildObjectsDefinition
  | DerivedDefinition
  | SpecialDefinition
  | AdminRolesDefinition;

/** The parent type of a definition that has one. */
export function parentOf(definition: ResourceDefinition): OktaResourceType | undefined {
  return 'parent' in definition ? definition.parent : undefined;
}

const field =
  (...path: string[]): Namer =>
  (object) => {
    let value: unknown = object;
    for (const key of path) value = (value as Record<string, unknown> | null)?.[key];
    return typeof value === 'string' ? value : null;
  };

/**
 * Memberships and assignments are links between two records that carry the labels; a label of
 * their own would change with the user's login while the link does not.
 */
const noName: Namer = () => null;

const authServer = (parent: ParentRef) => ({ authServerId: parent.id });

/** The last path segment of a link, e.g. a schema id from `_links.schema.href`. */
const linkedId =
  (rel: string) =>
  (object: OktaObject): string | undefined => {
    const href = (object._links as Record<string, { href?: unknown }> | undefined)?.[rel]?.href;
    return typeof href === 'string' ? href.split('/').pop() : undefined;
  };

/** `{ key: value }` when the value is a string, else nothing: what a parent remembers. */
const keep = (key: string, value: string | undefined): Record<string, string> =>
  value === undefined ? {} : { [key]: value };

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

/** How each Okta type is listed: endpoints from management.yaml, record names per okta-resource-types.ts. */
export const RESOURCE_DEFINITIONS = {
  user_type: {
    kind: 'top',
    template: '/api/v1/meta/types/user',
    name: field('name'),
    // The type's schema is `_links.schema` (`/api/v1/meta/schemas/user/{schemaId}`).
    remember: (type) => keep('schemaId', linkedId('schema')(type)),
  },
  user_schema: {
    kind: 'child_objects',
    parent: 'user_type',
    objects: [{ key: 'schema', template: '/api/v1/meta/schemas/user/{schemaId}' }],
    applies: (type) => type.keys.schemaId !== undefined,
    params: (type) => ({ schemaId: type.keys.schemaId }),
    name: field('title'),
  },
  group_schema: {
    kind: 'single',
    template: '/api/v1/meta/schemas/group/default',
    id: 'default',
    name: field('title'),
  },
  linked_object: {
    kind: 'top',
    template: '/api/v1/meta/schemas/user/linkedObjects',
    key: field('primary', 'name'),
    name: field('primary', 'title'),
  },
  user: { kind: 'users', name: field('profile', 'login'), incremental: { fields: ['lastUpdated'] } },
  group: {
    kind: 'top',
    template: '/api/v1/groups',
    query: { limit: PAGE_LIMITS.groups },
    name: field('profile', 'name'),
    // A member added or removed changes the group's `lastMembershipUpdated`, which its record
    // holds, not its `lastUpdated` (Groups API: "groups with profile or membership updated").
    incremental: { fields: ['lastUpdated', 'lastMembershipUpdated'] },
  },
  group_membership: {
    kind: 'child',
    parent: 'group',
    template: '/api/v1/groups/{groupId}/users',
    query: { limit: PAGE_LIMITS.groupUsers },
    params: (group) => ({ groupId: group.id }),
    name: noName,
    // Okta answers whole users, which the user part already holds.
    data: (group, userId) => ({ groupId: group.id, userId }),
    incremental: { parentField: 'lastMembershipUpdated' },
  },
  group_owner: {
    kind: 'child',
    parent: 'group',
    template: '/api/v1/groups/{groupId}/owners',
    query: { limit: PAGE_LIMITS.groupOwners },
    params: (group) => ({ groupId: group.id }),
    name: field('displayName'),
  },
  group_rule: {
    kind: 'top',
    template: '/api/v1/groups/rules',
    query: { limit: PAGE_LIMITS.groupRules },
    name: field('name'),
  },
  app: {
    kind: 'top',
    template: '/api/v1/apps',
    query: { limit: PAGE_LIMITS.apps },
    name: field('label'),
    remember: (app) => ({
      ...keep('signOnMode', field('signOnMode')(app) ?? undefined),
      ...keep('accessPolicyId', linkedId('accessPolicy')(app)),
    }),
  },
  app_user_assignment: {
    kind: 'child',
    parent: 'app',
    template: '/api/v1/apps/{appId}/users',
    query: { limit: PAGE_LIMITS.appUsers },
    params: (app) => ({ appId: app.id }),
    name: noName,
  },
  app_group_assignment: {
    kind: 'child',
    parent: 'app',
    template: '/api/v1/apps/{appId}/groups',
    query: { limit: PAGE_LIMITS.appGroups },
    params: (app) => ({ appId: app.id }),
    name: noName,
  },
  app_feature: {
    kind: 'child',
    parent: 'app',
    template: '/api/v1/apps/{appId}/features',
    params: (app) => ({ appId: app.id }),
    key: field('name'),
    // Apps without provisioning answer 400 (E0000150 "provisioning is not supported").
    emptyOn: [400, 404],
    name: field('name'),
  },
  app_user_schema: {
    kind: 'child_objects',
    parent: 'app',
    objects: [{ key: 'default', template: '/api/v1/meta/schemas/apps/{appId}/default' }],
    params: (app) => ({ appId: app.id }),
    name: field('title'),
  },
  app_sign_on_policy: {
    kind: 'derived',
    parent: 'app',
    derive: (app) => {
      const policyId = app.keys.accessPolicyId;
      return policyId === undefined ? null : { key: policyId, data: { appId: app.id, policyId } };
    },
  },
  app_signing_key: {
    kind: 'child',
    parent: 'app',
    template: '/api/v1/apps/{appId}/credentials/keys',
    params: (app) => ({ appId: app.id }),
    key: field('kid'),
    name: field('kid'),
  },
  app_client_secret: {
    kind: 'child',
    parent: 'app',
    template: '/api/v1/apps/{appId}/credentials/secrets',
    // Only OAuth 2.0 clients have secrets.
    applies: (app) => app.keys.signOnMode === 'OPENID_CONNECT',
    params: (app) => ({ appId: app.id }),
    name: noName,
  },
  identity_provider: {
    kind: 'top',
    template: '/api/v1/idps',
    query: { limit: PAGE_LIMITS.identityProviders },
    name: field('name'),
  },
  profile_mapping: {
    kind: 'top',
    template: '/api/v1/mappings',
    query: { limit: PAGE_LIMITS.profileMappings },
    // The list holds source and target only; the property mappings come with each mapping.
    detail: { template: '/api/v1/mappings/{mappingId}', param: 'mappingId' },
    name: (mapping) => {
      const source = field('source', 'name')(mapping);
      const target = field('target', 'name')(mapping);
      return source && target ? `${source} -> ${target}` : null;
    },
  },
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

/** Admin role assignments: users with roles, then each one's and each group's roles. */
export const ROLE_ASSIGNEES_TEMPLATE = '/api/v1/iam/assignees/users';
export const USER_ROLES_TEMPLATE = '/api/v1/users/{userId}/roles';
export const GROUP_ROLES_TEMPLATE = '/api/v1/groups/{groupId}/roles';
export const GROUPS_TEMPLATE = '/api/v1/groups';

/** The user list's two queries: see OktaCollector for why both. */
export const USERS_TEMPLATE = '/api/v1/users';
export const DEPROVISIONED_USERS_SEARCH = 'status eq "DEPROVISIONED"';
export const POLICIES_TEMPLATE = '/api/v1/policies';
