/**
 * The Entra ID types a backup collects, in dependency order (parents first, the order a restore
 * would apply them): the tenant (organization, branding, domains), named locations (which
 * conditional access policies name), users, groups and what hangs off them, administrative units,
 * applications and service principals with their credentials, grants and assignments, directory
 * roles (custom definitions, assignments, PIM schedules, scoped to units), then the policies.
 * Names are Graph's own, singular snake_case, with `user`, `group` and `group_membership` where
 * the concept is Okta's too (docs/resource-types.md "Microsoft Entra ID"). Record ids are Graph's object ids;
 * a domain's is its name, a cross-tenant partner's its tenant id; a child read under a parent is
 * `<parentId>:<childId>` (a membership or owner `<parentId>:<memberId>`), except an
 * authentication method configuration, whose id (`Fido2`...) is already the tenant's only one.
 */
export const ENTRA_RESOURCE_TYPES = [
  'organization',
  'organizational_branding',
  'domain',
  'named_location',
  'user',
  'group',
  'group_membership',
  'group_owner',
  'group_setting',
  'group_lifecycle_policy',
  'administrative_unit',
  'administrative_unit_member',
  'application',
  'application_owner',
  'federated_identity_credential',
  'extension_property',
  'service_principal',
  'app_role_assignment',
  'oauth2_permission_grant',
  'role_definition',
  'role_assignment',
  'role_eligibility_schedule',
  'role_assignment_schedule',
  'scoped_role_membership',
  'authentication_strength_policy',
  'conditional_access_policy',
  'authorization_policy',
  'authentication_methods_policy',
  'authentication_method_configuration',
  'identity_security_defaults_enforcement_policy',
  'admin_consent_request_policy',
  'permission_grant_policy',
  'token_lifetime_policy',
  'token_issuance_policy',
  'claims_mapping_policy',
  'home_realm_discovery_policy',
  'cross_tenant_access_policy',
  'cross_tenant_access_policy_configuration_default',
  'cross_tenant_access_policy_configuration_partner',
] as const;

export type EntraResourceType = (typeof ENTRA_RESOURCE_TYPES)[number];

/** How one type is read from Graph v1.0. */
export interface EntraTypeDefinition {
  /**
   * the Graph v1.0 path, also the stats and rate-limit template (`/v1.0/groups/{id}/members`);
   * `{id}` is each object of `parent`
   */
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
  /** other query options the read sends (`$filter`) */
  query?: Readonly<Record<string, string>>;
  /**
   * Whether the list takes `$top=999` (its reference page lists `$top`, and it holds enough
   * objects to page); other lists are read in Graph's default pages.
   */
  top?: boolean;
  /** the type whose objects this one is read under, one request per parent object */
  parent?: EntraResourceType;
  /**
   * A child that is a link to a directory object (members, owners): the record is
   * `{ <parentKey>, <key>Id, <key>Type }` (`{ groupId, memberId, memberType }`), the type from the
   * object's `@odata.type`, and only ids are selected.
   */
  link?: { parentKey: string; key: string };
  /**
   * Read from the parent's answer instead of a request: the parent's member that holds these
   * objects (Graph returns them inline), which the parent's record leaves out.
   */
  embeddedIn?: string;
  /** a 404 means the tenant has none (organizational branding never configured) */
  absentOn404?: boolean;
  /** the record id of a top-level object, when it is not the object's `id` */
  id?: (object: Record<string, unknown>) => unknown;
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
  /** the delta function's permission, when its reference page names another than the list's */
  deltaPermission?: string;
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
const none = (): null => null;

/** A collection of Graph v1.0 that lists in full. */
const listed = (
  path: string,
  permission: string,
  extra: Partial<EntraTypeDefinition> = {},
): EntraTypeDefinition => ({ path, shape: 'collection', permission, name: displayName, ...extra });

/** A singleton of Graph v1.0 (one object, record id its `id`, else the path's last segment). */
const singleton = (path: string, permission: string): EntraTypeDefinition => ({
  path,
  shape: 'singleton',
  permission,
  id: (object) => object.id ?? path.slice(path.lastIndexOf('/') + 1),
  name: displayName,
});

/**
 * Per type, its Graph read and the permission behind it, with the Graph API reference page whose
 * "Permissions" table names it (application permissions, least privileged). Where a backup
 * already needs a permission the page lists as also sufficient, the catalogue names that one so
 * an app registration needs no extra grant: Group.Read.All for members, owners and group settings
 * (`group-list-members`, `group-list-owners`, `group-list-settings`).
 */
export const ENTRA_TYPE_DEFINITIONS: Readonly<Record<EntraResourceType, EntraTypeDefinition>> = {
  // organization-list
  organization: listed('/v1.0/organization', 'Organization.Read.All', { top: true }),
  // organizationalbranding-get: 404 when no default branding exists
  organizational_branding: {
    path: '/v1.0/organization/{id}/branding',
    shape: 'singleton',
    permission: 'OrganizationalBranding.Read.All',
    parent: 'organization',
    absentOn404: true,
    name: none,
  },
  // domain-list
  domain: listed('/v1.0/domains', 'Domain.Read.All', { top: true, name: (domain) => domain.id }),
  // conditionalaccessroot-list-namedlocations
  named_location: listed('/v1.0/identity/conditionalAccess/namedLocations', 'Policy.Read.All', {
    top: true,
  }),
  // user-list
  user: listed('/v1.0/users', 'User.Read.All', {
    top: true,
    select: USER_SELECT,
    name: (user) => user.userPrincipalName ?? user.displayName,
    delta: '/v1.0/users/delta',
  }),
  // group-list, group-list-members, group-list-owners, group-list-settings, grouplifecyclepolicy-list
  group: listed('/v1.0/groups', 'Group.Read.All', { top: true, delta: '/v1.0/groups/delta' }),
  group_membership: {
    ...listed('/v1.0/groups/{id}/members', 'Group.Read.All', { top: true, name: none }),
    parent: 'group',
    link: { parentKey: 'groupId', key: 'member' },
    deltaOf: { parent: 'group', relationship: 'members' },
  },
  group_owner: {
    ...listed('/v1.0/groups/{id}/owners', 'Group.Read.All', { top: true, name: none }),
    parent: 'group',
    link: { parentKey: 'groupId', key: 'owner' },
  },
  group_setting: listed('/v1.0/groupSettings', 'Group.Read.All'),
  group_lifecycle_policy: listed('/v1.0/groupLifecyclePolicies', 'Directory.Read.All', {
    name: (policy) => policy.managedGroupTypes,
  }),
  // directory-list-administrativeunits, administrativeunit-list-members
  administrative_unit: listed('/v1.0/directory/administrativeUnits', 'AdministrativeUnit.Read.All', {
    top: true,
    delta: '/v1.0/directory/administrativeUnits/delta',
  }),
  administrative_unit_member: {
    ...listed('/v1.0/directory/administrativeUnits/{id}/members', 'AdministrativeUnit.Read.All', {
      top: true,
      name: none,
    }),
    parent: 'administrative_unit',
    link: { parentKey: 'administrativeUnitId', key: 'member' },
  },
  // application-list, application-list-owners, application-list-federatedidentitycredentials,
  // application-list-extensionproperty
  application: listed('/v1.0/applications', 'Application.Read.All', {
    top: true,
    delta: '/v1.0/applications/delta',
  }),
  application_owner: {
    ...listed('/v1.0/applications/{id}/owners', 'Application.Read.All', { top: true, name: none }),
    parent: 'application',
    link: { parentKey: 'applicationId', key: 'owner' },
  },
  federated_identity_credential: {
    ...listed('/v1.0/applications/{id}/federatedIdentityCredentials', 'Application.Read.All', {
      name: (credential) => credential.name,
    }),
    parent: 'application',
  },
  extension_property: {
    ...listed('/v1.0/applications/{id}/extensionProperties', 'Application.Read.All', {
      name: (property) => property.name,
    }),
    parent: 'application',
  },
  // serviceprincipal-list, serviceprincipal-list-approleassignedto: every assignment has one
  // resource service principal, so listing each one's assignedTo finds every assignment once
  service_principal: listed('/v1.0/servicePrincipals', 'Application.Read.All', {
    top: true,
    delta: '/v1.0/servicePrincipals/delta',
  }),
  app_role_assignment: {
    ...listed('/v1.0/servicePrincipals/{id}/appRoleAssignedTo', 'Application.Read.All', {
      top: true,
      name: (assignment) => assignment.principalDisplayName,
    }),
    parent: 'service_principal',
  },
  // oauth2permissiongrant-list; oauth2permissiongrant-delta takes Directory.Read.All instead
  oauth2_permission_grant: listed('/v1.0/oauth2PermissionGrants', 'DelegatedPermissionGrant.Read.All', {
    name: (grant) => grant.scope,
    delta: '/v1.0/oauth2PermissionGrants/delta',
    deltaPermission: 'Directory.Read.All',
  }),
  // rbacapplication-list-roledefinitions (custom ones: built-ins are Microsoft's, the same in
  // every tenant), rbacapplication-list-roleassignments,
  // rbacapplication-list-roleeligibilityschedules, rbacapplication-list-roleassignmentschedules,
  // administrativeunit-list-scopedrolemembers
  role_definition: listed('/v1.0/roleManagement/directory/roleDefinitions', 'RoleManagement.Read.Directory', {
    query: { $filter: 'isBuiltIn eq false' },
  }),
  role_assignment: listed('/v1.0/roleManagement/directory/roleAssignments', 'RoleManagement.Read.Directory', {
    name: none,
  }),
  role_eligibility_schedule: listed(
    '/v1.0/roleManagement/directory/roleEligibilitySchedules',
    'RoleEligibilitySchedule.Read.Directory',
    { name: none },
  ),
  role_assignment_schedule: listed(
    '/v1.0/roleManagement/directory/roleAssignmentSchedules',
    'RoleAssignmentSchedule.Read.Directory',
    { name: none },
  ),
  scoped_role_membership: {
    ...listed('/v1.0/directory/administrativeUnits/{id}/scopedRoleMembers', 'RoleManagement.Read.Directory', {
      name: (membership) => valueOf(membership.roleMemberInfo, 'displayName'),
    }),
    parent: 'administrative_unit',
  },
  // authenticationstrengthroot-list-policies, conditionalaccessroot-list-policies
  authentication_strength_policy: listed('/v1.0/policies/authenticationStrengthPolicies', 'Policy.Read.All'),
  conditional_access_policy: listed('/v1.0/identity/conditionalAccess/policies', 'Policy.Read.All', {
    top: true,
  }),
  // authorizationpolicy-get
  authorization_policy: singleton('/v1.0/policies/authorizationPolicy', 'Policy.Read.All'),
  // authenticationmethodspolicy-get: its answer holds every method configuration
  // (authenticationmethodconfiguration-get reads one), kept as their own records
  authentication_methods_policy: singleton(
    '/v1.0/policies/authenticationMethodsPolicy',
    'Policy.Read.AuthenticationMethod',
  ),
  authentication_method_configuration: {
    path: '/v1.0/policies/authenticationMethodsPolicy/authenticationMethodConfigurations/{id}',
    shape: 'collection',
    permission: 'Policy.Read.AuthenticationMethod',
    parent: 'authentication_methods_policy',
    embeddedIn: 'authenticationMethodConfigurations',
    name: (configuration) => configuration.id,
  },
  // identitysecuritydefaultsenforcementpolicy-get, adminconsentrequestpolicy-get,
  // permissiongrantpolicy-list, tokenlifetimepolicy-list, tokenissuancepolicy-list,
  // claimsmappingpolicy-list, homerealmdiscoverypolicy-list
  identity_security_defaults_enforcement_policy: singleton(
    '/v1.0/policies/identitySecurityDefaultsEnforcementPolicy',
    'Policy.Read.All',
  ),
  admin_consent_request_policy: singleton('/v1.0/policies/adminConsentRequestPolicy', 'Policy.Read.All'),
  permission_grant_policy: listed('/v1.0/policies/permissionGrantPolicies', 'Policy.Read.PermissionGrant'),
  token_lifetime_policy: listed('/v1.0/policies/tokenLifetimePolicies', 'Policy.Read.All'),
  token_issuance_policy: listed('/v1.0/policies/tokenIssuancePolicies', 'Policy.Read.All'),
  claims_mapping_policy: listed('/v1.0/policies/claimsMappingPolicies', 'Policy.Read.All'),
  home_realm_discovery_policy: listed('/v1.0/policies/homeRealmDiscoveryPolicies', 'Policy.Read.All'),
  // crosstenantaccesspolicy-get, crosstenantaccesspolicyconfigurationdefault-get,
  // crosstenantaccesspolicy-list-partners (a partner is keyed by its tenant id)
  cross_tenant_access_policy: singleton('/v1.0/policies/crossTenantAccessPolicy', 'Policy.Read.All'),
  cross_tenant_access_policy_configuration_default: {
    ...singleton('/v1.0/policies/crossTenantAccessPolicy/default', 'Policy.Read.All'),
    name: none,
  },
  cross_tenant_access_policy_configuration_partner: listed(
    '/v1.0/policies/crossTenantAccessPolicy/partners',
    'Policy.Read.All',
    { id: (partner) => partner.tenantId, name: (partner) => partner.tenantId },
  ),
};

function valueOf(object: unknown, key: string): unknown {
  return object !== null && typeof object === 'object' ? (object as Record<string, unknown>)[key] : undefined;
}

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
  const permissions = types.flatMap((type) => {
    const { permission, deltaPermission } = ENTRA_TYPE_DEFINITIONS[type];
    return deltaPermission ? [permission, deltaPermission] : [permission];
  });
  if (types.some((type) => ENTRA_TYPE_DEFINITIONS[type].delta ?? ENTRA_TYPE_DEFINITIONS[type].deltaOf))
    permissions.push(RECOVERY_JOBS_PERMISSION);
  return [...new Set(permissions)];
}
