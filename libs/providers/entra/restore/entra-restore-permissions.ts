import {
  ENTRA_RESOURCE_TYPES,
  type EntraResourceType,
  entraBackupPermissions,
} from '@libs/providers/entra/entra-resource-catalog.js';

/**
 * Per type, the least privileged application permission that writes it, from the "Permissions"
 * table of its create and update operations' Graph API reference pages ("Create user", "Update
 * user"...). A type without one is not written (its definition's notes say why).
 */
export const ENTRA_WRITE_PERMISSIONS: Partial<Record<EntraResourceType, readonly string[]>> = {
  // "Create user", "Update user"; "Delete user" and "Restore deleted item" (a user): User.DeleteRestore.All
  user: ['User.ReadWrite.All', 'User.DeleteRestore.All'],
  // "Create group", "Update group", "Restore deleted item" (a group)
  group: ['Group.ReadWrite.All'],
  // "Add members", "Remove member"
  group_membership: ['GroupMember.ReadWrite.All'],
  // "Add owners" (of a group), "Remove owner"
  group_owner: ['Group.ReadWrite.All'],
  // "Create application", "Update application", "Add owner", "Create federatedIdentityCredential",
  // "Create extensionProperty", "Create servicePrincipal", "Update servicePrincipal", "Restore
  // deleted item" of either: Application.ReadWrite.OwnedBy reaches only the apps it owns, so a
  // restore of others' takes Application.ReadWrite.All
  application: ['Application.ReadWrite.All'],
  application_owner: ['Application.ReadWrite.All'],
  federated_identity_credential: ['Application.ReadWrite.All'],
  extension_property: ['Application.ReadWrite.All'],
  service_principal: ['Application.ReadWrite.All'],
  // "Grant an appRoleAssignment for a service principal", "Delete appRoleAssignedTo"
  // (AppRoleAssignment.ReadWrite.All and Application.Read.All, which a backup of it has)
  app_role_assignment: ['AppRoleAssignment.ReadWrite.All'],
  // "Create oAuth2PermissionGrant", "Update a delegated permission grant"
  oauth2_permission_grant: ['DelegatedPermissionGrant.ReadWrite.All'],
  // "Create administrativeUnit", "Update administrativeUnit", "Add a member", "Restore deleted item"
  administrative_unit: ['AdministrativeUnit.ReadWrite.All'],
  administrative_unit_member: ['AdministrativeUnit.ReadWrite.All'],
  // "Add a scopedRoleMember"
  scoped_role_membership: ['RoleManagement.ReadWrite.Directory'],
  // "Create unifiedRoleDefinition", "Update unifiedRoleDefinition"
  role_definition: ['RoleManagement.ReadWrite.Directory'],
  // "Create unifiedRoleAssignment", "Create roleEligibilityScheduleRequests", "Create
  // roleAssignmentScheduleRequests"; with Application.Read.All ("List servicePrincipals") to find
  // the connection's own service principal, whose grants a restore never touches (lockout guard)
  role_assignment: ['RoleManagement.ReadWrite.Directory', 'Application.Read.All'],
  role_eligibility_schedule: ['RoleEligibilitySchedule.ReadWrite.Directory', 'Application.Read.All'],
  role_assignment_schedule: ['RoleAssignmentSchedule.ReadWrite.Directory', 'Application.Read.All'],
  // "Create namedLocation", "Update namedLocation", "Delete namedLocation"
  named_location: ['Policy.ReadWrite.ConditionalAccess'],
  // "Create authenticationStrengthPolicy", "Update", "updateAllowedCombinations"
  authentication_strength_policy: ['Policy.ReadWrite.ConditionalAccess'],
  // "Create conditionalAccessPolicy", "Update"; "Delete conditionalAccessPolicy": Policy.Read.All
  // and Policy.ReadWrite.ConditionalAccess; the lockout check (lockout-check.ts) reads the Global
  // Administrators' assignments ("List unifiedRoleAssignments"), users and group members
  conditional_access_policy: [
    'Policy.ReadWrite.ConditionalAccess',
    'Policy.Read.All',
    'RoleManagement.Read.Directory',
    'User.Read.All',
    'GroupMember.Read.All',
  ],
  // "Update authorizationPolicy"
  authorization_policy: ['Policy.ReadWrite.Authorization'],
  // "Update authenticationMethodsPolicy", "Update authenticationMethodConfiguration"
  authentication_methods_policy: ['Policy.ReadWrite.AuthenticationMethod'],
  authentication_method_configuration: ['Policy.ReadWrite.AuthenticationMethod'],
  // "Update identitySecurityDefaultsEnforcementPolicy"
  identity_security_defaults_enforcement_policy: ['Policy.ReadWrite.SecurityDefaults'],
  // "Update adminConsentRequestPolicy"
  admin_consent_request_policy: ['Policy.ReadWrite.ConsentRequest'],
  // "Create permissionGrantPolicy", "Update", "Delete"
  permission_grant_policy: ['Policy.ReadWrite.PermissionGrant'],
  // "Create tokenLifetimePolicy" and the token issuance, claims mapping and home realm discovery pages
  token_lifetime_policy: ['Policy.ReadWrite.ApplicationConfiguration'],
  token_issuance_policy: ['Policy.ReadWrite.ApplicationConfiguration'],
  claims_mapping_policy: ['Policy.ReadWrite.ApplicationConfiguration'],
  home_realm_discovery_policy: ['Policy.ReadWrite.ApplicationConfiguration'],
  // "Update crossTenantAccessPolicy", "Update crossTenantAccessPolicyConfigurationDefault",
  // "Create crossTenantAccessPolicyConfigurationPartner", "Update", "Delete"
  cross_tenant_access_policy: ['Policy.ReadWrite.CrossTenantAccess'],
  cross_tenant_access_policy_configuration_default: ['Policy.ReadWrite.CrossTenantAccess'],
  cross_tenant_access_policy_configuration_partner: ['Policy.ReadWrite.CrossTenantAccess'],
  // "Create groupSetting", "Update groupSetting", "Delete groupSetting" (tenant-wide settings)
  group_setting: ['GroupSettings.ReadWrite.All'],
  // "Create groupLifecyclePolicy", "Update", "Delete"
  group_lifecycle_policy: ['Directory.ReadWrite.All'],
  // "Create internalDomainFederation", "Update", "Delete"
  domain_federation_configuration: ['Domain.ReadWrite.All'],
  // "Update identityProvider", "Delete identityProvider"
  identity_provider: ['IdentityProvider.ReadWrite.All'],
  // "Create attributeSet", "Update attributeSet", "Create customSecurityAttributeDefinition", "Update"
  attribute_set: ['CustomSecAttributeDefinition.ReadWrite.All'],
  custom_security_attribute_definition: ['CustomSecAttributeDefinition.ReadWrite.All'],
  // "Create authenticationContextClassReference", "Update", "Delete"
  authentication_context_class_reference: ['AuthenticationContext.ReadWrite.All'],
  // "Assign manager", "Remove manager"
  user_manager: ['User.ReadWrite.All'],
  // "user: assignLicense"
  user_license: ['LicenseAssignment.ReadWrite.All'],
  // "Update user" with directory extension attributes (extensibility-overview), after
  // "directoryObject: getAvailableExtensionProperties" (Directory.Read.All)
  user_extension_values: ['User.ReadWrite.All', 'Directory.Read.All'],
  // "Update unifiedRoleManagementPolicyRule"
  role_management_policy: ['RoleManagementPolicy.ReadWrite.Directory'],
  // "Update tenantAppManagementPolicy", "Create appManagementPolicy", "Update", "Delete"
  default_app_management_policy: ['Policy.ReadWrite.ApplicationConfiguration'],
  app_management_policy: ['Policy.ReadWrite.ApplicationConfiguration'],
  // "Update organization"
  organization: ['Organization.ReadWrite.All'],
  // "Update organizationalBranding", "Delete organizationalBranding"
  organizational_branding: ['OrganizationalBranding.ReadWrite.All'],
};

/**
 * The application permissions a restore of `types` needs: a full backup's (a restore starts with
 * one, and reads what is live) and each type's write permissions, each once.
 */
export function entraRestorePermissions(types: readonly string[]): string[] {
  const writes = ENTRA_RESOURCE_TYPES.filter((type) => types.includes(type)).flatMap(
    (type) => ENTRA_WRITE_PERMISSIONS[type] ?? [],
  );
  return [...new Set([...entraBackupPermissions(), ...writes])];
}
