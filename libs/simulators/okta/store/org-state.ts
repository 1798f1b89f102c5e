import { replaced, type Entry } from './entry.js';
import { ID_PREFIX, oktaId } from './okta-ids.js';
import { OrderedCollection } from './ordered-collection.js';
import { SystemLog } from './system-log.js';

/** Child collections keyed by their parent's id (or `authServerId:policyId`). */
export class ChildCollections<T> {
  private readonly byParent = new Map<string, OrderedCollection<T>>();

  /** The parent's collection, created empty on first use. */
  of(parentKey: string): OrderedCollection<T> {
    let collection = this.byParent.get(parentKey);
    if (!collection) {
      collection = new OrderedCollection<T>();
      this.byParent.set(parentKey, collection);
    }
    return collection;
  }

  /** The parent's collection if it has ever had children. */
  peek(parentKey: string): OrderedCollection<T> | undefined {
    return this.byParent.get(parentKey);
  }

  drop(parentKey: string): void {
    this.byParent.delete(parentKey);
  }

  *parents(): IterableIterator<[string, OrderedCollection<T>]> {
    yield* this.byParent;
  }
}

/** `authServerId:policyId`, the key of an authorization server policy's rules. */
export function policyKey(authServerId: string, policyId: string): string {
  return `${authServerId}:${policyId}`;
}

/** `<a>:<b>`, the key of a grandchild collection (a brand template's customizations...). */
export function pairKey(a: string, b: string): string {
  return `${a}:${b}`;
}

/**
 * Everything the simulated org holds, with the indexes the API needs (login -> user,
 * user -> groups) and the cascades Okta applies when a parent goes away. No HTTP here.
 */
export class OrgState {
  /** The admin the API token belongs to (`createdBy` of objects made through the API). */
  adminUserId = oktaId(ID_PREFIX.user);
  /** The built-in `Everyone` group every new user joins, when the org has one. */
  everyoneGroupId?: string;
  /** The default user type (`type.id` of users created without one). */
  defaultUserTypeId = oktaId(ID_PREFIX.userType);
  readonly users = new OrderedCollection<Entry>();
  readonly groups = new OrderedCollection<Entry>();
  /** groupId -> member userIds, in the order they were added. */
  readonly groupMembers = new ChildCollections<string>();
  readonly groupRules = new OrderedCollection<Entry>();
  readonly apps = new OrderedCollection<Entry>();
  /** appId -> AppUser objects keyed by userId. */
  readonly appUsers = new ChildCollections<Entry>();
  /** appId -> ApplicationGroupAssignment objects keyed by groupId. */
  readonly appGroups = new ChildCollections<Entry>();
  readonly policies = new OrderedCollection<Entry>();
  readonly policyRules = new ChildCollections<Entry>();
  readonly authorizationServers = new OrderedCollection<Entry>();
  readonly authorizationServerScopes = new ChildCollections<Entry>();
  readonly authorizationServerClaims = new ChildCollections<Entry>();
  readonly authorizationServerPolicies = new ChildCollections<Entry>();
  /** `authServerId:policyId` -> rules. */
  readonly authorizationServerPolicyRules = new ChildCollections<Entry>();
  readonly networkZones = new OrderedCollection<Entry>();
  readonly trustedOrigins = new OrderedCollection<Entry>();
  /** Installed API service integrations (`/integrations/api/v1/api-services`). */
  readonly apiServices = new OrderedCollection<Entry>();
  /** groupId -> GroupOwner objects keyed by owner id. */
  readonly groupOwners = new ChildCollections<Entry>();
  /** appId -> ApplicationFeature objects keyed by feature name. */
  readonly appFeatures = new ChildCollections<Entry>();
  /** appId -> the app user schema (one object, key `default`). */
  readonly appUserSchemas = new ChildCollections<Entry>();
  /** appId -> signing keys (public JWKs) keyed by kid. */
  readonly appKeys = new ChildCollections<Entry>();
  /** appId -> OAuth 2.0 client secrets keyed by id (the secret value included, as Okta serves it). */
  readonly appSecrets = new ChildCollections<Entry>();
  readonly authenticators = new OrderedCollection<Entry>();
  readonly identityProviders = new OrderedCollection<Entry>();
  readonly eventHooks = new OrderedCollection<Entry>();
  readonly inlineHooks = new OrderedCollection<Entry>();
  readonly userTypes = new OrderedCollection<Entry>();
  /** User schemas keyed by schema id (`osc...`); the default user type's answers `.../user/default`. */
  readonly userSchemas = new OrderedCollection<Entry>();
  /** userTypeId -> its schema id. */
  readonly userTypeSchemaIds = new Map<string, string>();
  /** The group schema (`/api/v1/meta/schemas/group/default`), keyed `default`. */
  readonly groupSchemas = new OrderedCollection<Entry>();
  /** Linked object definitions keyed by `primary.name`. */
  readonly linkedObjects = new OrderedCollection<Entry>();
  readonly profileMappings = new OrderedCollection<Entry>();
  readonly brands = new OrderedCollection<Entry>();
  readonly brandThemes = new ChildCollections<Entry>();
  /** brandId -> email template settings keyed by template name (every template exists). */
  readonly emailTemplates = new ChildCollections<Entry>();
  /** `brandId:templateName` -> customizations keyed by id. */
  readonly emailCustomizations = new ChildCollections<Entry>();
  /** brandId -> customized pages keyed `sign-in`, `error`, `sign-out`. */
  readonly brandPages = new ChildCollections<Entry>();
  readonly customDomains = new OrderedCollection<Entry>();
  readonly behaviors = new OrderedCollection<Entry>();
  /** userId -> role assignments keyed by assignment id. */
  readonly userRoles = new ChildCollections<Entry>();
  /** groupId -> role assignments keyed by assignment id. */
  readonly groupRoles = new ChildCollections<Entry>();
  /**
   * `ownerId:roleAssignmentId` -> the targets a standard role is limited to, keyed by target
   * (role-targets.ts): a group id, an app instance id, or `catalog.<appName>`.
   */
  readonly roleTargets = new ChildCollections<Entry>();
  readonly customRoles = new OrderedCollection<Entry>();
  /** roleId -> permissions keyed by label. */
  readonly rolePermissions = new ChildCollections<Entry>();
  readonly resourceSets = new OrderedCollection<Entry>();
  /** resourceSetId -> resources keyed by id. */
  readonly resourceSetResources = new ChildCollections<Entry>();
  /** resourceSetId -> bindings keyed by role id. */
  readonly resourceSetBindings = new ChildCollections<Entry>();
  /** `resourceSetId:roleId` -> binding members keyed by id. */
  readonly bindingMembers = new ChildCollections<Entry>();
  /** The System Log (`/api/v1/logs`). */
  readonly systemLog = new SystemLog();

  private readonly userIdByLogin = new Map<string, string>();
  /** userId -> groupIds; arrays, not Sets: users belong to a handful of groups, and there are 100,000s of users. */
  private readonly groupsByUser = new Map<string, string[]>();

  /** Adds or replaces a user, keeping the login index (logins are case-insensitive) in step. */
  putUser(id: string, entry: Entry): void {
    const previous = this.users.set(id, entry);
    if (previous) this.userIdByLogin.delete(loginOf(previous));
    const login = loginOf(entry);
    if (login) this.userIdByLogin.set(login, id);
  }

  /** Okta accepts an id or a login wherever `{id}` names a user (`/api/v1/users/{idOrLogin}`). */
  findUserId(idOrLogin: string): string | undefined {
    return this.users.has(idOrLogin) ? idOrLogin : this.userIdByLogin.get(idOrLogin.toLowerCase());
  }

  userIdForLogin(login: string): string | undefined {
    return this.userIdByLogin.get(login.toLowerCase());
  }

  /**
   * Deletes a user with its memberships (each group's `lastMembershipUpdated` moves to `now`),
   * app assignments, group ownerships and admin roles.
   */
  removeUser(id: string, now: string): void {
    const entry = this.users.delete(id);
    if (!entry) return;
    this.userIdByLogin.delete(loginOf(entry));
    for (const groupId of this.groupsByUser.get(id) ?? []) {
      this.groupMembers.peek(groupId)?.delete(id);
      this.touchMembership(groupId, now);
    }
    this.groupsByUser.delete(id);
    for (const [, assignments] of this.appUsers.parents()) assignments.delete(id);
    for (const [, owners] of this.groupOwners.parents()) owners.delete(id);
    this.dropRoles(this.userRoles, id);
  }

  /** Deletes an owner's role assignments with their targets. */
  dropRoles(roles: ChildCollections<Entry>, ownerId: string): void {
    for (const [assignmentId] of roles.peek(ownerId)?.entries() ?? [])
      this.roleTargets.drop(pairKey(ownerId, assignmentId));
    roles.drop(ownerId);
  }

  /**
   * Removes a deleted group or app from the targets of every role assignment. Okta's behaviour
   * when that was an assignment's last target is not documented nor recorded: the assignment is
   * left without targets here.
   */
  private forgetTarget(targetId: string): void {
    for (const [, targets] of this.roleTargets.parents()) targets.delete(targetId);
  }

  /** Sets the group's `lastMembershipUpdated` (Groups API: when its members last changed). */
  touchMembership(groupId: string, now: string): void {
    const group = this.groups.get(groupId);
    if (group) this.groups.set(groupId, replaced(group, { ...group.data, lastMembershipUpdated: now }));
  }

  addMember(groupId: string, userId: string): void {
    this.groupMembers.of(groupId).set(userId, userId);
    const groups = this.groupsByUser.get(userId);
    if (!groups) this.groupsByUser.set(userId, [groupId]);
    else if (!groups.includes(groupId)) groups.push(groupId);
  }

  removeMember(groupId: string, userId: string): boolean {
    this.forgetGroupOf(userId, groupId);
    return this.groupMembers.peek(groupId)?.delete(userId) !== undefined;
  }

  groupIdsOf(userId: string): readonly string[] {
    return this.groupsByUser.get(userId) ?? [];
  }

  /** Deletes a group with its memberships, app assignments, owners and admin roles. */
  removeGroup(id: string): void {
    this.groups.delete(id);
    for (const [userId] of this.groupMembers.peek(id)?.entries() ?? []) this.forgetGroupOf(userId, id);
    this.groupMembers.drop(id);
    for (const [, assignments] of this.appGroups.parents()) assignments.delete(id);
    this.groupOwners.drop(id);
    for (const [, owners] of this.groupOwners.parents()) owners.delete(id);
    this.dropRoles(this.groupRoles, id);
    this.forgetTarget(id);
  }

  private forgetGroupOf(userId: string, groupId: string): void {
    const groups = this.groupsByUser.get(userId);
    const index = groups?.indexOf(groupId) ?? -1;
    if (groups && index >= 0) groups.splice(index, 1);
  }

  removeApp(id: string): void {
    this.apps.delete(id);
    for (const children of [
      this.appUsers,
      this.appGroups,
      this.appFeatures,
      this.appUserSchemas,
      this.appKeys,
      this.appSecrets,
    ])
      children.drop(id);
    this.forgetTarget(id);
  }

  removePolicy(id: string): void {
    this.policies.delete(id);
    this.policyRules.drop(id);
  }

  removeAuthorizationServer(id: string): void {
    this.authorizationServers.delete(id);
    this.authorizationServerScopes.drop(id);
    this.authorizationServerClaims.drop(id);
    for (const [policyId] of this.authorizationServerPolicies.peek(id)?.entries() ?? [])
      this.authorizationServerPolicyRules.drop(policyKey(id, policyId));
    this.authorizationServerPolicies.drop(id);
  }

  removeAuthorizationServerPolicy(authServerId: string, policyId: string): void {
    this.authorizationServerPolicies.peek(authServerId)?.delete(policyId);
    this.authorizationServerPolicyRules.drop(policyKey(authServerId, policyId));
  }
}

function loginOf(entry: Entry): string {
  const profile = entry.data.profile as { login?: unknown } | undefined;
  return typeof profile?.login === 'string' ? profile.login.toLowerCase() : '';
}
