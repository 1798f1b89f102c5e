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
