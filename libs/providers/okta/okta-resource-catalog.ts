import type { OktaResourceType } from '../resource-types.js';
import type { OktaObject } from './okta-api-client.js';

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

/** A type listed at one endpoint of the org. */
export interface TopLevelDefinition {
  kind: 'top';
  template: string;
  query?: Record<string, string | number>;
  name: Namer;
}

/**
 * A type listed under each object of a parent type. The record id is `<parentRecordId>:<id>`
 * (resource-types.ts), the parent record id giving the path parameters.
 */
export interface ChildDefinition {
  kind: 'child';
  parent: OktaResourceType;
  template: string;
  query?: Record<string, string | number>;
  /** Path parameters from the parent's record id. */
  params: (parentId: string) => Record<string, string>;
  name: Namer;
  /** The record's data when it is not the object itself; `childId` is the object's `id`. */
  data?: (parentId: string, childId: string) => Record<string, unknown>;
}

/** Types with their own collection rules (two user queries, one query per policy type). */
export interface SpecialDefinition {
  kind: 'users' | 'policies';
  name: Namer;
}

export type ResourceDefinition = TopLevelDefinition | ChildDefinition | SpecialDefinition;

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

const authServer = (parentId: string) => ({ authServerId: parentId });

/** How each Okta type is listed: endpoints from management.yaml, record names per resource-types.ts. */
export const RESOURCE_DEFINITIONS: Record<OktaResourceType, ResourceDefinition> = {
  user: { kind: 'users', name: field('profile', 'login') },
  group: {
    kind: 'top',
    template: '/api/v1/groups',
    query: { limit: PAGE_LIMITS.groups },
    name: field('profile', 'name'),
  },
  group_membership: {
    kind: 'child',
    parent: 'group',
    template: '/api/v1/groups/{groupId}/users',
    query: { limit: PAGE_LIMITS.groupUsers },
    params: (groupId) => ({ groupId }),
    name: noName,
    // Okta answers whole users, which the user part already holds.
    data: (groupId, userId) => ({ groupId, userId }),
  },
  group_rule: {
    kind: 'top',
    template: '/api/v1/groups/rules',
    query: { limit: PAGE_LIMITS.groupRules },
    name: field('name'),
  },
  app: { kind: 'top', template: '/api/v1/apps', query: { limit: PAGE_LIMITS.apps }, name: field('label') },
  app_user_assignment: {
    kind: 'child',
    parent: 'app',
    template: '/api/v1/apps/{appId}/users',
    query: { limit: PAGE_LIMITS.appUsers },
    params: (appId) => ({ appId }),
    name: noName,
  },
  app_group_assignment: {
    kind: 'child',
    parent: 'app',
    template: '/api/v1/apps/{appId}/groups',
    query: { limit: PAGE_LIMITS.appGroups },
    params: (appId) => ({ appId }),
    name: noName,
  },
  policy: { kind: 'policies', name: field('name') },
  policy_rule: {
    kind: 'child',
    parent: 'policy',
    template: '/api/v1/policies/{policyId}/rules',
    params: (policyId) => ({ policyId }),
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
    params: (parentId) => {
      const [authServerId, policyId] = parentId.split(':');
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
};

/** The user list's two queries: see OktaCollector for why both. */
export const USERS_TEMPLATE = '/api/v1/users';
export const DEPROVISIONED_USERS_SEARCH = 'status eq "DEPROVISIONED"';
export const POLICIES_TEMPLATE = '/api/v1/policies';
