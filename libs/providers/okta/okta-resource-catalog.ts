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
  /** Top-level types: the timestamp property `filter=<field> gt "<since>"` compares. */
  field?: string;
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
  key?: (object: OktaObject) => string | undefined;
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
 * (resource-types.ts), the parent record id giving the path parameters.
 */
export interface ChildDefinition extends Listing {
  kind: 'child';
  parent: OktaResourceType;
  /** Path parameters from the parent. */
  params: (parent: ParentRef) => Record<string, string>;
  /** Parents that have none of these children are skipped without a request. */
  applies?: (parent: ParentRef) => boolean;
  /** Statuses meaning "no children here" (default 404: parent deleted since it was listed). */
  emptyOn?: readonly number[];
  /** The record's data when it is not the object itself; `childId` is the object's key. */
  data?: (parentId: string, childId: string) => Record<string, unknown>;
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

export type ResourceDefinition =
  | TopLevelDefinition
  | SingleDefinition
  | ChildDefinition
  | ChildObjectsDefinition
  | DerivedDefinition
  | SpecialDefinition;

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

/** How each Okta type is listed: endpoints from management.yaml, record names per resource-types.ts. */
export const RESOURCE_DEFINITIONS = {
  user: { kind: 'users', name: field('profile', 'login'), incremental: { field: 'lastUpdated' } },
  group: {
    kind: 'top',
    template: '/api/v1/groups',
    query: { limit: PAGE_LIMITS.groups },
    name: field('profile', 'name'),
    incremental: { field: 'lastUpdated' },
  },
  group_membership: {
    kind: 'child',
    parent: 'group',
    template: '/api/v1/groups/{groupId}/users',
    query: { limit: PAGE_LIMITS.groupUsers },
    params: (group) => ({ groupId: group.id }),
    name: noName,
    // Okta answers whole users, which the user part already holds.
    data: (groupId, userId) => ({ groupId, userId }),
    incremental: { parentField: 'lastMembershipUpdated' },
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
} satisfies Record<OktaResourceType, ResourceDefinition>;

/** The user list's two queries: see OktaCollector for why both. */
export const USERS_TEMPLATE = '/api/v1/users';
export const DEPROVISIONED_USERS_SEARCH = 'status eq "DEPROVISIONED"';
export const POLICIES_TEMPLATE = '/api/v1/policies';
