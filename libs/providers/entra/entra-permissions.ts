import { ProviderAuthError } from '@libs/providers/provider-errors.js';

/**
 * Read permissions that Directory.Read.All / Directory.ReadWrite.All also grant: the Graph API
 * reference lists them as higher privileged for users, groups, members and owners, the
 * organization, domains, applications and service principals, administrative units, OAuth2
 * grants, role definitions, assignments and scoped role members, and the admin consent request
 * policy (its pages `user-list`, `group-list`, `application-list`, `serviceprincipal-list`,
 * `directory-list-administrativeunits`, `oauth2permissiongrant-list`,
 * `rbacapplication-list-roleassignments`, `administrativeunit-list-scopedrolemembers`...).
 */
const DIRECTORY_READS =
  /^((User|Group|GroupMember|Organization|Domain|Application|AdministrativeUnit|DelegatedPermissionGrant)\.Read\.All|RoleManagement\.Read\.Directory)$/;

/**
 * Granted permissions that include a read permission: its ReadWrite form, and Directory.Read.All /
 * Directory.ReadWrite.All for the directory reads above; RoleManagement.Read.Directory (or its
 * ReadWrite form) for the PIM schedules (`rbacapplication-list-roleeligibilityschedules`, ...).
 */
function satisfiedBy(permission: string): string[] {
  const forms = [permission, permission.replace('.Read.', '.ReadWrite.')];
  if (DIRECTORY_READS.test(permission)) forms.push('Directory.Read.All', 'Directory.ReadWrite.All');
  // The write permissions' pages ("Create user", "Add members"...) list Directory.ReadWrite.All as
  // higher privileged, and "Add members" Group.ReadWrite.All too.
  if (DIRECTORY_READS.test(permission.replace('.ReadWrite.', '.Read.')))
    forms.push('Directory.ReadWrite.All');
  if (permission === 'GroupMember.ReadWrite.All') forms.push('Group.ReadWrite.All');
  // "List directoryAudits": "AuditLog.Read.All and Directory.Read.All", no higher privileged
  // permission: Directory.Read.All does not read the audit log without AuditLog.Read.All.
  if (
    /^Role(Eligibility|Assignment)Schedule\.Read\.Directory$|^RoleManagementPolicy\.Read\.Directory$/.test(
      permission,
    )
  )
    forms.push('RoleManagement.Read.Directory', 'RoleManagement.ReadWrite.Directory');
  return forms;
}

/**
 * The application permissions an app-only access token carries: its `roles` claim (Microsoft
 * identity platform "Access token claims reference": the permissions granted to the calling
 * application; absent when none are). The token is read, not verified: it has just come from the
 * token endpoint over TLS, and Graph verifies it on every call.
 *
 * @throws ProviderAuthError when the token is not a JWT
 */
export function grantedRoles(accessToken: string): string[] {
  const payload = accessToken.split('.')[1];
  let claims: { roles?: unknown };
  try {
    claims = JSON.parse(Buffer.from(payload ?? '', 'base64url').toString('utf8')) as { roles?: unknown };
  } catch {
    throw new ProviderAuthError('The Microsoft identity platform issued an access token that is not a JWT');
  }
  return Array.isArray(claims.roles) ? claims.roles.map(String) : [];
}

/**
 * Checks that `granted` holds each of `needed` (or a permission that includes it).
 * @param purpose what needs them, named in the error (`a backup needs`, `reading the directory audit log needs`)
 * @throws ProviderAuthError naming every missing application permission
 */
export function assertPermissionsGranted(
  needed: readonly string[],
  granted: readonly string[],
  purpose: 'backup' | 'restore' | 'reading the directory audit log' = 'backup',
): void {
  const missing = needed.filter(
    (permission) => !satisfiedBy(permission).some((form) => granted.includes(form)),
  );
  if (missing.length > 0)
    throw new ProviderAuthError(
      `The app registration lacks the application permission${missing.length > 1 ? 's' : ''} ${missing.join(', ')} (Microsoft Graph, admin consent granted) that ${purpose === 'reading the directory audit log' ? purpose : `a ${purpose}`} needs`,
    );
}
