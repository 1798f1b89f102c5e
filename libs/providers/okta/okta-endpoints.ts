/**
 * Okta's list endpoints and page sizes the catalogue (okta-resource-catalog.ts) and the collector's
 * hooks (okta-collector-hooks.ts) send, from Okta's OpenAPI description (management.yaml).
 */

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

/** Admin role assignments: users with roles, then each one's and each group's roles. */
export const ROLE_ASSIGNEES_TEMPLATE = '/api/v1/iam/assignees/users';
export const USER_ROLES_TEMPLATE = '/api/v1/users/{userId}/roles';
export const GROUP_ROLES_TEMPLATE = '/api/v1/groups/{groupId}/roles';
export const GROUPS_TEMPLATE = '/api/v1/groups';

/** The user list's two queries: see OktaCollector for why both. */
export const USERS_TEMPLATE = '/api/v1/users';
export const DEPROVISIONED_USERS_SEARCH = 'status eq "DEPROVISIONED"';
export const POLICIES_TEMPLATE = '/api/v1/policies';
