import type { ConfigurationChange } from '@libs/providers/provider-connector.js';
import type { GraphObject } from './graph-object.js';

type Severity = ConfigurationChange['severity'];

/**
 * Activities whose severity is not their category's, most specific first (docs/scores.md
 * "Drift"), by `activityDisplayName` ("Microsoft Entra audit log categories and activities"):
 * conditional access, authentication methods and strengths, the authorization policy and
 * security defaults decide who signs in and how, as Okta's `policy.` and
 * `security.authenticator.` events do: critical. Named locations are Okta's zones: high.
 */
const ACTIVITY_SEVERITY: ReadonlyArray<[RegExp, Severity]> = [
  [/conditional access policy/i, 'critical'],
  [/authentication methods? policy/i, 'critical'],
  [/authentication strength policy/i, 'critical'],
  [/authorization policy|security defaults/i, 'critical'],
  [/domain authentication|federation settings/i, 'critical'],
  [/named location/i, 'high'],
];

/**
 * Severity by audit `category`: role assignments and definitions are Okta's
 * `user.account.privilege.`/`iam.` (critical); apps, grants, other policies, cross-tenant access
 * and directory settings are high; groups and administrative units medium; users low. Other
 * categories (Authentication, Device, self-service password management...) record activity, not
 * configuration, and are not drift.
 */
const CATEGORY_SEVERITY: Readonly<Record<string, Severity>> = {
  RoleManagement: 'critical',
  Policy: 'high',
  CrossTenantAccessSettings: 'high',
  ApplicationManagement: 'high',
  DirectoryManagement: 'high',
  AdministrativeUnit: 'medium',
  GroupManagement: 'medium',
  UserManagement: 'low',
};

/** The severity of a directory audit activity, or null for one that is not a configuration change. */
export function entraDriftSeverity(category: string, activityDisplayName: string): Severity | null {
  if (!(category in CATEGORY_SEVERITY)) return null;
  return (
    ACTIVITY_SEVERITY.find(([pattern]) => pattern.test(activityDisplayName))?.[1] ??
    CATEGORY_SEVERITY[category]
  );
}

/**
 * A directory audit record as a configuration change (`eventType` its activity's name), or null
 * for a failed activity (it changed nothing) or one that is not configuration.
 */
export function configurationChangeOf(audit: GraphObject): ConfigurationChange | null {
  if (audit.result !== 'success') return null;
  const activity = String(audit.activityDisplayName ?? '');
  const severity = entraDriftSeverity(String(audit.category ?? ''), activity);
  return severity && { eventType: activity, severity, published: String(audit.activityDateTime ?? '') };
}
