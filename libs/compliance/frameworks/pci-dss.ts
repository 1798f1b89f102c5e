import { control, type Framework } from './framework-types.js';
import { THRESHOLDS as T } from './thresholds.js';

/** PCI DSS v4.0.1 (June 2024), requirements 7 and 8 with their numbers, and 10.5.1. */
export const PCI_DSS: Framework = {
  id: 'pci_dss',
  name: 'PCI DSS',
  version: 'v4.0.1',
  controls: [
    control(
      '7.2.2',
      'admins.super_admin_count',
      'high',
      'Least privilege: super administrators limited to 2 (break-glass) to 5 (recommended values).',
      T.superAdmins,
    ),
    control(
      '7.2.5',
      'integrations.api_service_scopes',
      'medium',
      'System and application accounts hold least privilege.',
    ),
    control(
      '8.2.1',
      'users.shared_accounts',
      'medium',
      'Every user has a unique ID; no shared or generic accounts.',
    ),
    control(
      '8.2.5',
      'users.deprovisioned_access',
      'critical',
      'Access of terminated users is revoked immediately: no app assignments left on deactivated or suspended users.',
    ),
    control(
      '8.2.5',
      'admins.deactivated_with_roles',
      'critical',
      'Access of terminated users is revoked immediately: no admin roles left on deactivated or suspended users.',
    ),
    control(
      '8.2.6',
      'users.inactive',
      'high',
      'Inactive user accounts are removed or disabled within 90 days of inactivity.',
      T.inactiveDays90,
    ),
    control(
      '8.2.8',
      'session.idle_timeout',
      'medium',
      'A session idle for more than 15 minutes requires re-authentication.',
      T.idle15,
    ),
    control(
      '8.3.4',
      'password.lockout',
      'high',
      'Lock out after not more than 10 invalid attempts, for at least 30 minutes or until identity is confirmed.',
      T.pciLockout,
    ),
    control('8.3.6', 'password.min_length', 'high', 'Passwords are at least 12 characters long.', {
      minLength: 12,
    }),
    control(
      '8.3.6',
      'password.complexity',
      'medium',
      'Passwords contain both numeric and alphabetic characters.',
      { requireDigit: true, requireLetter: true },
    ),
    control('8.3.7', 'password.history', 'medium', 'A new password differs from each of the last 4.', {
      minHistory: 4,
    }),
    control(
      '8.3.9',
      'password.max_age',
      'medium',
      'Where the password is the only factor, it is changed at least every 90 days.',
      { maxAgeDays: 90, onlyWithoutMfa: true },
    ),
    control(
      '8.4.1',
      'mfa.admin_console',
      'critical',
      'MFA for all non-console administrative access (the Okta Admin Console).',
    ),
    control(
      '8.4.2',
      'mfa.global_session',
      'high',
      'MFA for all access: the global session policy requires a second factor.',
    ),
    control(
      '8.4.2',
      'mfa.app_access',
      'high',
      'MFA for all access: app sign-in policies require two factors.',
    ),
    control(
      '8.5.1',
      'authenticators.weak_factors',
      'medium',
      'MFA is not susceptible to replay: no SMS, voice or security question for authentication.',
    ),
    control(
      '10.5.1',
      'logging.log_streaming',
      'medium',
      'Audit logs kept at least 12 months (Okta keeps 90 days: a log stream must export them).',
    ),
  ],
};
