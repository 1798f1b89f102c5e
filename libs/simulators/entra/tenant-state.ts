import { randomUUID } from 'node:crypto';

import { ChangeLog } from './change-log.js';

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
  // What restores depend on (dependency.routes.ts): entity sets and singletons of the same CSDL
  'identityProviders',
  'attributeSets',
  'customSecurityAttributeDefinitions',
  'authenticationContextClassReferences',
  'termsOfUseAgreements',
  'subscribedSkus',
  'roleManagementPolicies',
  'roleManagementPolicyAssignments',
  'defaultAppManagementPolicy',
  'appManagementPolicies',
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
  // a domain's federation (`federationConfiguration`), a user's `manager` (a link)
  'federationConfiguration',
  'manager',
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
  /** What the write methods changed, for delta queries (seeding with `put`/`addMember` writes none). */
  readonly changes = new ChangeLog();
  /**
   * The directory's deleted items (`/directory/deletedItems`), by id: the object with its
   * `deletedDateTime`, and the links a restore brings back (the groups it was a member of; a
   * group's own members).
   */
  readonly deleted = new Map<string, DeletedItem>();
  /** Microsoft Entra Backup and Recovery jobs (`/directory/recovery/jobs`), oldest first. */
  readonly recoveryJobs: GraphObject[] = [];

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

  /** Removes the object `id` under `parentId` in `name`. @returns false when there is none */
  removeChild(name: ChildCollection, parentId: string, id: string): boolean {
    const list = this.childrenOf(name, parentId);
    const kept = list.filter((child) => child.id !== id);
    this.children.get(name)!.set(parentId, kept);
    return kept.length < list.length;
  }

  /** The objects under `parentId` in `name`, in the order they were added. */
  childrenOf(name: ChildCollection, parentId: string): GraphObject[] {
    return this.children.get(name)!.get(parentId) ?? [];
  }

  /** Creates an object of `collection` (a change delta queries report whole). */
  create(collection: Collection, object: GraphObject): void {
    this.put(collection, object);
    this.changes.object(collection, object.id, 'created');
  }

  /**
   * Sets `changes` on an object of `collection` (a change delta queries report by its properties).
   * @returns the updated object, or undefined for an unknown id
   */
  update(collection: Collection, id: string, changes: Record<string, unknown>): GraphObject | undefined {
    const object = this.collection(collection).get(id);
    if (!object) return undefined;
    const updated = { ...object, ...changes, id };
    this.put(collection, updated);
    this.changes.object(collection, id, 'updated', Object.keys(changes));
    return updated;
  }

  /**
   * Deletes a directory object ("Delete user", "Delete group", "Delete application", "Delete
   * servicePrincipal", "Delete administrativeUnit", "Delete oAuth2PermissionGrant"; "directory:
   * deletedItems"): users, applications, service principals, administrative units, Microsoft 365
   * groups and, since February-March 2026, cloud security groups go to the deleted items for 30
   * days, restorable ("When deleted, both Microsoft 365 and security groups are moved to a
   * temporary container and can be restored within 30 days", learn.microsoft.com/graph/api/
   * group-delete; Microsoft 365 message center MC1183299). Distribution groups ("permanently
   * deleted immediately", ibid.) and groups synchronized from Active Directory (excluded by
   * MC1183299: their source of authority is on premises) are deleted for good, and so are
   * delegated permission grants (not directory objects the deleted items hold). Either way the
   * object leaves every group it was a member of (a membership change delta queries report).
   * @returns false for an unknown id
   */
  remove(collection: DeletableCollection, id: string): boolean {
    const object = this.collection(collection).get(id);
    if (!object) return false;
    const memberOf = [...this.members].filter(([, ids]) => ids.includes(id)).map(([groupId]) => groupId);
    for (const groupId of memberOf) this.unlink(groupId, id);
    const members = this.members.get(id) ?? [];
    this.collection(collection).delete(id);
    this.members.delete(id);
    const soft = collection === 'groups' ? softDeletedGroup(object) : collection !== 'oauth2PermissionGrants';
    if (soft)
      this.deleted.set(id, {
        collection: collection as DeletedItem['collection'],
        object,
        deletedDateTime: new Date().toISOString(),
        memberOf,
        members,
      });
    this.changes.object(collection, id, soft ? 'changed' : 'deleted');
    return true;
  }

  /**
   * Restores a deleted item ("Restore deleted item"): the object comes back with its id, in the
   * groups it was a member of that still exist, with its own members that still exist (a group).
   * @returns the restored object, or undefined when `id` is not a deleted item
   */
  restore(id: string): GraphObject | undefined {
    const item = this.deleted.get(id);
    if (!item) return undefined;
    this.deleted.delete(id);
    const { object } = item;
    this.put(item.collection, object);
    this.changes.object(item.collection, id, 'restored');
    for (const memberId of item.members) if (this.directoryObjectType(memberId)) this.link(id, memberId);
    for (const groupId of item.memberOf) if (this.collection('groups').has(groupId)) this.link(groupId, id);
    return object;
  }

  /** Deletes a deleted item for good ("Permanently delete an item"). @returns false when not one */
  purge(id: string): boolean {
    const item = this.deleted.get(id);
    if (!item) return false;
    this.deleted.delete(id);
    this.changes.object(item.collection, id, 'deleted');
    return true;
  }

  /**
   * What a native recovery (Microsoft Entra Backup and Recovery) does: sets `properties` on each
   * object, writing no change delta queries see ("Recovery jobs don't generate change notifications
   * through subscriptions or delta records", Backup and Recovery overview), and records the
   * successful recovery job.
   * @returns the job
   */
  recoverNatively(
    changes: ReadonlyArray<{ collection: Collection; id: string; properties: Record<string, unknown> }>,
  ): GraphObject {
    for (const { collection, id, properties } of changes) {
      const object = this.collection(collection).get(id);
      if (object) this.put(collection, { ...object, ...properties, id });
    }
    const now = new Date();
    const job: GraphObject = {
      '@odata.type': '#microsoft.graph.entraRecoveryServices.recoveryJob',
      id: randomUUID(),
      status: 'successful',
      targetStateDateTime: new Date(now.getTime() - 86_400_000).toISOString(),
      jobStartDateTime: now.toISOString(),
      jobCompletionDateTime: now.toISOString(),
      filteringCriteria: null,
      totalChangedObjectsCalculated: changes.length,
      totalChangedLinksCalculated: 0,
      totalObjectsModified: changes.length,
      totalLinksModified: 0,
      totalFailedChanges: 0,
    };
    this.recoveryJobs.push(job);
    return job;
  }

  /** Adds a member (a change delta queries report). @returns false when already a member */
  link(groupId: string, memberId: string): boolean {
    if (this.members.get(groupId)?.includes(memberId)) return false;
    this.addMember(groupId, memberId);
    this.changes.member(groupId, memberId, this.directoryObjectType(memberId)!, 'added');
    return true;
  }

  /** Removes a member (a change delta queries report). @returns false when not a member */
  unlink(groupId: string, memberId: string): boolean {
    const list = this.members.get(groupId);
    const at = list?.indexOf(memberId) ?? -1;
    if (!list || at === -1) return false;
    list.splice(at, 1);
    const type = this.directoryObjectType(memberId) ?? '#microsoft.graph.user';
    this.changes.member(groupId, memberId, type, 'removed');
    return true;
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

/** The collections whose objects the simulator deletes (TenantState.remove). */
export type DeletableCollection =
  | 'users'
  | 'groups'
  | 'applications'
  | 'servicePrincipals'
  | 'administrativeUnits'
  | 'oauth2PermissionGrants';

/** A soft-deleted directory object, and the links its restore brings back. */
export interface DeletedItem {
  collection: Exclude<DeletableCollection, 'oauth2PermissionGrants'>;
  /** the object as it was */
  object: GraphObject;
  /** when it was deleted (ISO 8601), which the deleted items list shows */
  deletedDateTime: string;
  /** groups it was a member of */
  memberOf: string[];
  /** a group's own members */
  members: string[];
}

/**
 * Whether a deleted group goes to the deleted items (TenantState.remove): a Microsoft 365 group
 * (`groupTypes` holding `Unified`) or a cloud security group (`securityEnabled`, not synchronized
 * from Active Directory); not a distribution group nor a synchronized one.
 */
function softDeletedGroup(group: GraphObject): boolean {
  if ((group.groupTypes as string[] | undefined)?.includes('Unified')) return true;
  return group.securityEnabled === true && group.onPremisesSyncEnabled !== true;
}
