/** Okta's standard admin roles and their labels (OpenAPI `RoleType`, Standard roles guide). */
export const STANDARD_ROLE_LABELS: Readonly<Record<string, string>> = {
  SUPER_ADMIN: 'Super Administrator',
  ORG_ADMIN: 'Organizational Administrator',
  APP_ADMIN: 'Application Administrator',
  USER_ADMIN: 'Group Administrator',
  HELP_DESK_ADMIN: 'Help Desk Administrator',
  READ_ONLY_ADMIN: 'Read-only Administrator',
  MOBILE_ADMIN: 'Mobile Administrator',
  API_ACCESS_MANAGEMENT_ADMIN: 'API Access Management Administrator',
  REPORT_ADMIN: 'Report Administrator',
  GROUP_MEMBERSHIP_ADMIN: 'Group Membership Administrator',
};

/**
 * Standard roles Okta limits to groups (`/targets/groups`): listGroupTargetsForRole and
 * assignGroupTargetToUserRole name USER_ADMIN, HELP_DESK_ADMIN and GROUP_MEMBERSHIP_ADMIN.
 */
export const GROUP_TARGET_ROLES: ReadonlySet<string> = new Set([
  'USER_ADMIN',
  'HELP_DESK_ADMIN',
  'GROUP_MEMBERSHIP_ADMIN',
]);

/** Standard roles Okta limits to apps (`/targets/catalog/apps`): APP_ADMIN only (RoleBTargetAdmin). */
export const APP_TARGET_ROLES: ReadonlySet<string> = new Set(['APP_ADMIN']);
