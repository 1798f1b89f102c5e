/** A Graph JSON object as the simulator stores and returns it. */
export type GraphObject = Record<string, unknown> & { id: string };

/**
 * The collections the simulator serves, each a Graph entity set or singleton (v1.0 CSDL:
 * `users`, `groups`, `identity/conditionalAccess/policies`, `identity/conditionalAccess/namedLocations`,
 * `organization`, `domains`; singletons `policies/authorizationPolicy`,
 * `policies/authenticationMethodsPolicy`).
 */
export const COLLECTIONS = [
  'users',
  'groups',
  'conditionalAccessPolicies',
  'namedLocations',
  'organization',
  'domains',
  'authorizationPolicy',
  'authenticationMethodsPolicy',
  // Directory part 2 (directory.routes.ts): entity sets and singletons of the same CSDL
  'groupSettings',
  'groupLifecyclePolicies',
  'administrativeUnits',
  'applications',
  'servicePrincipals',
  'oauth2PermissionGrants',
  'roleDefinitions',
  'roleAssignments',
  'roleEligibilitySchedules',
  'roleAssignmentSchedules',
  'authenticationStrengthPolicies',
  'identitySecurityDefaultsEnforcementPolicy',
  'adminConsentRequestPolicy',
  'permissionGrantPolicies',
  'tokenLifetimePolicies',
  'tokenIssuancePolicies',
  'claimsMappingPolicies',
  'homeRealmDiscoveryPolicies',
  'crossTenantAccessPolicy',
  'crossTenantAccessPolicyDefault',
  'crossTenantAccessPolicyPartners',
] as const;
export type Collection = (typeof COLLECTIONS)[number];

/**
 * Objects held under a parent object (v1.0 CSDL navigation properties), by parent id: links to
 * directory objects (`groupOwners`, `applicationOwners`, `administrativeUnitMembers`, stored as
 * `{ id }`) and contained objects (`federatedIdentityCredentials`, `extensionProperties`,
 * `appRoleAssignedTo`, `scopedRoleMembers`, an organization's `branding`).
 */
export const CHILD_COLLECTIONS = [
  'groupOwners',
  'applicationOwners',
  'administrativeUnitMembers',
  'federatedIdentityCredentials',
  'extensionProperties',
  'appRoleAssignedTo',
  'scopedRoleMembers',
  'branding',
] as const;
export type ChildCollection = (typeof CHILD_COLLECTIONS)[number];

/**
 * The state of one simulated tenant: each collection's objects in insertion order (Graph lists
 * directory objects in no documented order; a stable one makes paging deterministic), and each
 * group's members as ids of users or groups.
 */
export class TenantState {
  readonly collections = new Map<Collection, Map<string, GraphObject>>(
    COLLECTIONS.map((name) => [name, new Map()]),
  );
  /** group id -> member ids, in the order they were added */
  readonly members = new Map<string, string[]>();
  /** child collection -> parent id -> its objects, in the order they were added */
  readonly children = new Map<ChildCollection, Map<string, GraphObject[]>>(
    CHILD_COLLECTIONS.map((name) => [name, new Map()]),
  );

  constructor(
    /** the tenant's GUID (`organization.id`, the `tid` of its tokens) */
    readonly tenantId: string,
  ) {}

  /** Adds or replaces an object of `collection`. */
  put(collection: Collection, object: GraphObject): void {
    this.collection(collection).set(object.id, object);
  }

  collection(name: Collection): Map<string, GraphObject> {
    return this.collections.get(name)!;
  }

  /** Adds `memberId` (a user or group of the tenant) to `groupId`'s members once. */
  addMember(groupId: string, memberId: string): void {
    const list = this.members.get(groupId) ?? [];
    if (!list.includes(memberId)) list.push(memberId);
    this.members.set(groupId, list);
  }

  /** Adds `object` under `parentId` in `name`, replacing one of the same id. */
  addChild(name: ChildCollection, parentId: string, object: GraphObject): void {
    const byParent = this.children.get(name)!;
    const list = (byParent.get(parentId) ?? []).filter((child) => child.id !== object.id);
    list.push(object);
    byParent.set(parentId, list);
  }

  /** The objects under `parentId` in `name`, in the order they were added. */
  childrenOf(name: ChildCollection, parentId: string): GraphObject[] {
    return this.children.get(name)!.get(parentId) ?? [];
  }

  /** The `@odata.type` of a directory object by id (`#microsoft.graph.user`...), or undefined. */
  directoryObjectType(id: string): string | undefined {
    if (this.collection('users').has(id)) return '#microsoft.graph.user';
    if (this.collection('groups').has(id)) return '#microsoft.graph.group';
    if (this.collection('servicePrincipals').has(id)) return '#microsoft.graph.servicePrincipal';
    return undefined;
  }

  /** A directory object (user, group, service principal) with its `@odata.type`, or undefined. */
  directoryObject(id: string): GraphObject | undefined {
    const type = this.directoryObjectType(id);
    if (!type) return undefined;
    const collection = ({ user: 'users', group: 'groups', servicePrincipal: 'servicePrincipals' } as const)[
      type.replace('#microsoft.graph.', '') as 'user' | 'group' | 'servicePrincipal'
    ];
    return { '@odata.type': type, ...this.collection(collection).get(id)! };
  }

  /** The verified domain names of the tenant: a token request may name the tenant by one. */
  domainNames(): string[] {
    return [...this.collection('domains').keys()];
  }
}
