import { field, noName } from '@libs/providers/kit/resource-catalog.js';
import {
  type EntraChildDefinition,
  type EntraSingleDefinition,
  type EntraTopDefinition,
  type EntraTypeDefinition,
  underParent,
} from './entra-catalog-types.js';
import { ENTRA_RESOURCE_TYPES, type EntraResourceType } from './entra-resource-types.js';
import type { GraphObject } from './graph-object.js';

export { ENTRA_RESOURCE_TYPES, type EntraResourceType };
export type { EntraTypeDefinition };

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

const displayName = field<GraphObject>('displayName');

/**
 * The filter "List roleManagementPolicies" and "List roleManagementPolicyAssignments" require:
 * the policies of Microsoft Entra roles at the directory's scope.
 */
export const DIRECTORY_ROLE_POLICIES = "scopeId eq '/' and scopeType eq 'DirectoryRole'";

/** A collection of the tenant, listed in full. */
const listed = (
  template: string,
  permission: string,
  extra: Partial<EntraTopDefinition> = {},
): EntraTopDefinition => ({ kind: 'top', template, permission, name: displayName, ...extra });

/** A list read under each object of `parent`. */
const under = (
  parent: EntraResourceType,
  template: string,
  permission: string,
  extra: Partial<EntraChildDefinition> = {},
): EntraChildDefinition => ({
  kind: 'child',
  parent,
  template,
  params: underParent,
  emptyOn: [],
  permission,
  name: displayName,
  ...extra,
});

/** A singleton (one object, record id its `id`, else the path's last segment). */
const singleton = (template: string, permission: string): EntraSingleDefinition => ({
  kind: 'single',
  template,
  permission,
  id: template.slice(template.lastIndexOf('/') + 1),
  key: field('id'),
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
  organizational_branding: under(
    'organization',
    '/v1.0/organization/{id}/branding',
    'OrganizationalBranding.Read.All',
    {
      object: true,
      emptyOn: [404],
      name: noName,
    },
  ),
  // domain-list
  domain: listed('/v1.0/domains', 'Domain.Read.All', { top: true, name: field('id') }),
  // domain-list-federationconfiguration: one object at most, a federated domain's
  domain_federation_configuration: under(
    'domain',
    '/v1.0/domains/{id}/federationConfiguration',
    'Domain.Read.All',
  ),
  // identitycontainer-list-identityproviders
  identity_provider: listed('/v1.0/identity/identityProviders', 'IdentityProvider.Read.All'),
  // directory-list-attributesets, directory-list-customsecurityattributedefinitions
  attribute_set: listed('/v1.0/directory/attributeSets', 'CustomSecAttributeDefinition.Read.All', {
    name: field('id'),
  }),
  custom_security_attribute_definition: listed(
    '/v1.0/directory/customSecurityAttributeDefinitions',
    'CustomSecAttributeDefinition.Read.All',
    { name: field('id') },
  ),
  // conditionalaccessroot-list-authenticationcontextclassreferences, termsofusecontainer-list-agreements
  authentication_context_class_reference: listed(
    '/v1.0/identity/conditionalAccess/authenticationContextClassReferences',
    'AuthenticationContext.Read.All',
  ),
  terms_of_use_agreement: listed('/v1.0/identityGovernance/termsOfUse/agreements', 'Agreement.Read.All'),
  // conditionalaccessroot-list-namedlocations
  named_location: listed('/v1.0/identity/conditionalAccess/namedLocations', 'Policy.Read.All', {
    top: true,
  }),
  // user-list
  user: listed('/v1.0/users', 'User.Read.All', {
    top: true,
    select: USER_SELECT,
    name: (user) => field<GraphObject>('userPrincipalName')(user) ?? displayName(user),
    delta: '/v1.0/users/delta',
  }),
  // user-list with `$expand=manager($select=id)` and with `$select=assignedLicenses`: a listing of
  // the users each (no request per user), a record per user, its manager null, its licences empty
  // when it has none; in a full backup both come from the users' own listing (`sharedWith`)
  user_manager: listed('/v1.0/users', 'User.Read.All', {
    top: true,
    select: ['id'],
    query: { $expand: 'manager($select=id)' },
    name: noName,
    sharedWith: 'user',
  }),
  user_license: listed('/v1.0/users', 'User.Read.All', {
    top: true,
    select: ['id', 'assignedLicenses'],
    name: noName,
    sharedWith: 'user',
  }),
  // group-list, group-list-members, group-list-owners, group-list-settings, grouplifecyclepolicy-list
  group: listed('/v1.0/groups', 'Group.Read.All', { top: true, delta: '/v1.0/groups/delta' }),
  group_membership: under('group', '/v1.0/groups/{id}/members', 'Group.Read.All', {
    top: true,
    name: noName,
    link: { parentKey: 'groupId', key: 'member' },
    deltaOf: { parent: 'group', relationship: 'members' },
  }),
  group_owner: under('group', '/v1.0/groups/{id}/owners', 'Group.Read.All', {
    top: true,
    name: noName,
    link: { parentKey: 'groupId', key: 'owner' },
  }),
  group_setting: listed('/v1.0/groupSettings', 'Group.Read.All'),
  group_lifecycle_policy: listed('/v1.0/groupLifecyclePolicies', 'Directory.Read.All', {
    name: field('managedGroupTypes'),
  }),
  // directory-list-administrativeunits, administrativeunit-list-members
  administrative_unit: listed('/v1.0/directory/administrativeUnits', 'AdministrativeUnit.Read.All', {
    top: true,
    delta: '/v1.0/directory/administrativeUnits/delta',
  }),
  administrative_unit_member: under(
    'administrative_unit',
    '/v1.0/directory/administrativeUnits/{id}/members',
    'AdministrativeUnit.Read.All',
    { top: true, name: noName, link: { parentKey: 'administrativeUnitId', key: 'member' } },
  ),
  // tenantappmanagementpolicy-get, appmanagementpolicy-list
  default_app_management_policy: singleton('/v1.0/policies/defaultAppManagementPolicy', 'Policy.Read.All'),
  app_management_policy: listed('/v1.0/policies/appManagementPolicies', 'Policy.Read.All'),
  // application-list, application-list-owners, application-list-federatedidentitycredentials,
  // application-list-extensionproperty
  application: listed('/v1.0/applications', 'Application.Read.All', {
    top: true,
    delta: '/v1.0/applications/delta',
  }),
  application_owner: under('application', '/v1.0/applications/{id}/owners', 'Application.Read.All', {
    top: true,
    name: noName,
    link: { parentKey: 'applicationId', key: 'owner' },
  }),
  federated_identity_credential: under(
    'application',
    '/v1.0/applications/{id}/federatedIdentityCredentials',
    'Application.Read.All',
    { name: field('name') },
  ),
  extension_property: under(
    'application',
    '/v1.0/applications/{id}/extensionProperties',
    'Application.Read.All',
    {
      name: field('name'),
    },
  ), // user-list with `$select=id,<extension names>`: Graph returns a directory extension's value
  // only when named in `$select` (extensibility-overview, "Directory (Microsoft Entra ID)
  // extensions"); the names are the User extensions of `extension_property` (a collector hook)
  user_extension_values: {
    kind: 'extension_values',
    template: '/v1.0/users',
    permission: 'User.Read.All',
    top: true,
    name: noName,
    definitions: 'extension_property',
    target: 'User',
  },

  // serviceprincipal-list, serviceprincipal-list-approleassignedto: every assignment has one
  // resource service principal, so listing each one's assignedTo finds every assignment once
  service_principal: listed('/v1.0/servicePrincipals', 'Application.Read.All', {
    top: true,
    delta: '/v1.0/servicePrincipals/delta',
  }),
  app_role_assignment: under(
    'service_principal',
    '/v1.0/servicePrincipals/{id}/appRoleAssignedTo',
    'Application.Read.All',
    { top: true, name: field('principalDisplayName') },
  ),
  // oauth2permissiongrant-list; oauth2permissiongrant-delta takes Directory.Read.All instead
  oauth2_permission_grant: listed('/v1.0/oauth2PermissionGrants', 'DelegatedPermissionGrant.Read.All', {
    name: field('scope'),
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
  // policyroot-list-rolemanagementpolicies (with their rules), policyroot-list-
  // rolemanagementpolicyassignments: both take a filter on the scope, the directory's roles here
  role_management_policy: listed(
    '/v1.0/policies/roleManagementPolicies',
    'RoleManagementPolicy.Read.Directory',
    {
      query: { $filter: DIRECTORY_ROLE_POLICIES, $expand: 'rules' },
    },
  ),
  role_management_policy_assignment: listed(
    '/v1.0/policies/roleManagementPolicyAssignments',
    'RoleManagementPolicy.Read.Directory',
    { query: { $filter: DIRECTORY_ROLE_POLICIES }, name: field('roleDefinitionId') },
  ),
  role_assignment: listed('/v1.0/roleManagement/directory/roleAssignments', 'RoleManagement.Read.Directory', {
    name: noName,
  }),
  role_eligibility_schedule: listed(
    '/v1.0/roleManagement/directory/roleEligibilitySchedules',
    'RoleEligibilitySchedule.Read.Directory',
    { name: noName },
  ),
  role_assignment_schedule: listed(
    '/v1.0/roleManagement/directory/roleAssignmentSchedules',
    'RoleAssignmentSchedule.Read.Directory',
    { name: noName },
  ),
  scoped_role_membership: under(
    'administrative_unit',
    '/v1.0/directory/administrativeUnits/{id}/scopedRoleMembers',
    'RoleManagement.Read.Directory',
    { name: field('roleMemberInfo', 'displayName') },
  ),
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
    kind: 'embedded',
    parent: 'authentication_methods_policy',
    member: 'authenticationMethodConfigurations',
    template: '/v1.0/policies/authenticationMethodsPolicy/authenticationMethodConfigurations/{id}',
    permission: 'Policy.Read.AuthenticationMethod',
    name: field('id'),
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
    name: noName,
  },
  cross_tenant_access_policy_configuration_partner: listed(
    '/v1.0/policies/crossTenantAccessPolicy/partners',
    'Policy.Read.All',
    { key: field('tenantId'), name: field('tenantId') },
  ),
};

/**
 * What an incremental backup reads besides its types: Microsoft Entra Backup and Recovery's jobs
 * (`GET /directory/recovery/jobs`, EntraBackup.Read.All), since a native recovery writes no delta
 * records and makes the delta links of a base unreliable (entra-native-recovery.ts).
 */
export const RECOVERY_JOBS_PERMISSION = 'EntraBackup.Read.All';

/**
 * The application permissions a backup of `types` needs, each once, in type order, and the
 * recovery jobs' when a type is fetched by delta. Not the directory audit's (AuditLog.Read.All,
 * which drift and who changed what are read from): a connection is created only with it
 * (EntraConnector.verifyCredentials, ENTRA_PROVIDER.grants), but a backup of a connection made
 * before it was asked for still runs, its drift and attribution saying the permission is missing.
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
