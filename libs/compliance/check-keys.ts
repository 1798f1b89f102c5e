/**
 * The provider-neutral capabilities frameworks map their controls to. Each provider's catalogue
 * implements them (libs/providers/<kind>/compliance); a key a provider lacks gives `manual`.
 */
export const CHECK_KEYS = [
  'password.min_length',
  'password.complexity',
  'password.history',
  'password.max_age',
  'password.lockout',
  'password.common_excluded',
  'password.recovery_factors',
  'session.idle_timeout',
  'session.lifetime',
  'session.persistent_cookie',
  'mfa.global_session',
  'mfa.app_access',
  'mfa.admin_console',
  'mfa.phishing_resistant_admins',
  'mfa.admin_enrollment',
  'authenticators.weak_factors',
  'admins.super_admin_count',
  'admins.deactivated_with_roles',
  'users.inactive',
  'users.deprovisioned_access',
  'users.shared_accounts',
  'access.direct_assignments',
  'network.blocklist_zone',
  'network.zone_policies',
  'network.threat_insight',
  'network.trusted_origins',
  'integrations.api_service_scopes',
  'hooks.event_hooks_verified',
  'logging.log_streaming',
  'backup.cadence',
  'backup.restore_tested',
] as const;

export type CheckKey = (typeof CHECK_KEYS)[number];
