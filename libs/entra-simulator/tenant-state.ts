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
] as const;
export type Collection = (typeof COLLECTIONS)[number];

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

  /** The `@odata.type` of a directory object by id (`#microsoft.graph.user`...), or undefined. */
  directoryObjectType(id: string): string | undefined {
    if (this.collection('users').has(id)) return '#microsoft.graph.user';
    if (this.collection('groups').has(id)) return '#microsoft.graph.group';
    return undefined;
  }

  /** The verified domain names of the tenant: a token request may name the tenant by one. */
  domainNames(): string[] {
    return [...this.collection('domains').keys()];
  }
}
