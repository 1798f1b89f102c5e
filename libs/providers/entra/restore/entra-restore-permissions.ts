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
