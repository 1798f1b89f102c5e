/**
 * The Entra ID types a backup collects, in dependency order (parents first, the order a restore
 * would apply them): the tenant's organization and domains, named locations (which conditional
 * access policies name), users, groups, memberships, then the policies. Names are Graph's own,
 * singular snake_case, with `user`, `group` and `group_membership` where the concept is Okta's
 * too (issue 30). Record ids are Graph's object ids; a domain's is its name; a membership's is
 * `<groupId>:<memberId>`.
 */
export const ENTRA_RESOURCE_TYPES = [
  'organization',
  'domain',
  'named_location',
  'user',
  'group',
  'group_membership',
  'conditional_access_policy',
  'authorization_policy',
  'authentication_methods_policy',
] as const;

export type EntraResourceType = (typeof ENTRA_RESOURCE_TYPES)[number];

/** How one type is read from Graph v1.0. */
export interface EntraTypeDefinition {
  /** the Graph v1.0 path, also the stats and rate-limit template (`/v1.0/groups/{id}/members`) */
  path: string;
  /** a collection (paged, `@odata.nextLink`) or a singleton (one object) */
  shape: 'collection' | 'singleton';
  /**
   * The least privileged application permission that reads it, from the "Permissions" table of
   * the operation's Graph API reference page (the page is named in docs/resource-types.md).
   */
  permission: string;
  /** `$select` to send: the properties a backup keeps when the default set is smaller (users) */
  select?: readonly string[];
  /** the record's human name */
  name: (object: Record<string, unknown>) => unknown;
  /**
   * Graph's delta function of the type (`GET /v1.0/users/delta`, the v1.0 CSDL's bound `delta`),
   * when it has one: an incremental backup reads what changed since the base's delta link
   * (entra-delta.ts), sending the type's `select`. Types without one are listed in full every time.
   */
  delta?: string;
  /**
   * The type is a relationship its parent's delta reports (`members@delta` of `group: delta`):
   * its changes come with the parent's rounds, from the same delta link.
   */
  deltaOf?: { parent: EntraResourceType; relationship: string };
}

/**
 * The user properties a backup selects: Graph's `GET /users` returns only 11 of them without
 * `$select` ("user-list", optional query parameters). Configuration and identity only:
 * sign-in activity and license details are left out.
 */
export const USER_SELECT = [
  'id',
  'displayName',
  'userPrincipalName',
  'mail',
  'givenName',
  'surname',
  'jobTitle',
  'department',
  'accountEnabled',
  'userType',
  'createdDateTime',
  'onPremisesSyncEnabled',
  'onPremisesImmutableId',
  'businessPhones',
  'mobilePhone',
  'officeLocation',
  'preferredLanguage',
  'usageLocation',
] as const;

const displayName = (object: Record<string, unknown>): unknown => object.displayName;

/**
 * Per type, its Graph read and the permission behind it. Memberships are read per group
 * (`group-list-members`, least privileged GroupMember.Read.All; Group.Read.All, which groups
 * need anyway, also reads them, so a backup asks for that one).
 */
export const ENTRA_TYPE_DEFINITIONS: Readonly<Record<EntraResourceType, EntraTypeDefinition>> = {
  organization: {
    path: '/v1.0/organization',
    shape: 'collection',
    permission: 'Organization.Read.All',
    name: displayName,
  },
  domain: {
    path: '/v1.0/domains',
    shape: 'collection',
    permission: 'Domain.Read.All',
    name: (domain) => domain.id,
  },
  named_location: {
    path: '/v1.0/identity/conditionalAccess/namedLocations',
    shape: 'collection',
    permission: 'Policy.Read.All',
    name: displayName,
  },
  user: {
    path: '/v1.0/users',
    shape: 'collection',
    permission: 'User.Read.All',
    select: USER_SELECT,
    name: (user) => user.userPrincipalName ?? user.displayName,
    delta: '/v1.0/users/delta',
  },
  group: {
    path: '/v1.0/groups',
    shape: 'collection',
    permission: 'Group.Read.All',
    name: displayName,
    delta: '/v1.0/groups/delta',
  },
  group_membership: {
    path: '/v1.0/groups/{id}/members',
    shape: 'collection',
    permission: 'Group.Read.All',
    select: ['id'],
    name: () => null,
    deltaOf: { parent: 'group', relationship: 'members' },
  },
  conditional_access_policy: {
    path: '/v1.0/identity/conditionalAccess/policies',
    shape: 'collection',
    permission: 'Policy.Read.All',
    name: displayName,
  },
  authorization_policy: {
    path: '/v1.0/policies/authorizationPolicy',
    shape: 'singleton',
    permission: 'Policy.Read.All',
    name: displayName,
  },
  authentication_methods_policy: {
    path: '/v1.0/policies/authenticationMethodsPolicy',
    shape: 'singleton',
    permission: 'Policy.Read.AuthenticationMethod',
    name: displayName,
  },
};

/**
 * What an incremental backup reads besides its types: Microsoft Entra Backup and Recovery's jobs
 * (`GET /directory/recovery/jobs`, EntraBackup.Read.All), since a native recovery writes no delta
 * records and makes the delta links of a base unreliable (entra-native-recovery.ts).
 */
export const RECOVERY_JOBS_PERMISSION = 'EntraBackup.Read.All';

/**
 * The application permissions a backup of `types` needs, each once, in type order, and the
 * recovery jobs' when a type is fetched by delta.
 */
export function entraBackupPermissions(types: readonly EntraResourceType[] = ENTRA_RESOURCE_TYPES): string[] {
  const permissions = types.map((type) => ENTRA_TYPE_DEFINITIONS[type].permission);
  if (types.some((type) => ENTRA_TYPE_DEFINITIONS[type].delta ?? ENTRA_TYPE_DEFINITIONS[type].deltaOf))
    permissions.push(RECOVERY_JOBS_PERMISSION);
  return [...new Set(permissions)];
}
