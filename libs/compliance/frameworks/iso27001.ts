import { control, type Framework } from './framework-types.js';
import { THRESHOLDS as T } from './thresholds.js';

/**
 * ISO/IEC 27001:2022 Annex A. The standard gives no numbers: thresholds are recommended values
 * from NIST, PCI DSS and CIS.
 */
export const ISO27001: Framework = {
  id: 'iso27001',
  name: 'ISO/IEC 27001 Annex A',
  version: '2022',
  controls: [
    control(
      '5.15',
      'mfa.app_access',
      'high',
      'Access control rules: app sign-in policies require two factors.',
    ),
    control('5.15', 'network.zone_policies', 'low', 'Access control rules use network zones.'),
    control(
      '5.16',
      'users.inactive',
      'medium',
      'Identity management: accounts unused for 90 days disabled (PCI DSS 8.2.6 value, recommended).',
      T.inactiveDays90,
    ),
    control('5.16', 'users.shared_accounts', 'medium', 'Identity management: no shared or generic accounts.'),
    control(
      '5.17',
      'password.min_length',
      'high',
      'Authentication information: 15 characters, 8 with MFA (SP 800-63B-4 values, recommended).',
      T.nistPasswordLength,
    ),
    control(
      '5.17',
      'password.common_excluded',
      'medium',
      'Authentication information: common passwords refused.',
    ),
    control(
      '5.17',
      'password.history',
      'low',
      'Authentication information: the last 4 passwords not reused (PCI DSS 8.3.7 value, recommended).',
      { minHistory: 4 },
    ),
    control(
      '5.18',
      'users.deprovisioned_access',
      'critical',
      'Access rights removed on exit: no app assignments on deactivated users.',
    ),
    control(
      '5.18',
      'access.direct_assignments',
      'low',
      'Access rights through groups, at most 25 % direct (recommended value).',
      T.directAssignments,
    ),
    control(
      '8.2',
      'admins.super_admin_count',
      'high',
      'Privileged access rights: 2 to 5 super administrators (recommended values).',
      T.superAdmins,
    ),
    control(
      '8.2',
      'mfa.admin_console',
      'critical',
      'Privileged access rights: the Admin Console requires two factors.',
    ),
    control(
      '8.2',
      'mfa.phishing_resistant_admins',
      'high',
      'Privileged access rights: a phishing-resistant authenticator for administrators.',
    ),
    control(
      '8.5',
      'mfa.global_session',
      'high',
      'Secure authentication: the global session policy requires a second factor.',
    ),
    control(
      '8.5',
      'password.lockout',
      'medium',
      'Secure authentication: lock after at most 10 attempts for 30 minutes (PCI DSS 8.3.4 values, recommended).',
      T.pciLockout,
    ),
    control(
      '8.5',
      'session.idle_timeout',
      'medium',
      'Secure authentication: sessions end after 15 minutes idle (FedRAMP AC-11 value, recommended).',
      T.idle15,
    ),
    control(
      '8.5',
      'session.persistent_cookie',
      'low',
      'Secure authentication: sessions do not persist across browser restarts.',
    ),
    control(
      '8.13',
      'backup.cadence',
      'high',
      'Information backup at least weekly (CIS Controls 11.2 value, recommended).',
      T.backupWeekly,
    ),
    control(
      '8.13',
      'backup.restore_tested',
      'high',
      'Backups tested: a restore within 90 days (CIS Controls 11.5 value, recommended).',
      T.restoreQuarterly,
    ),
    control('8.15', 'logging.log_streaming', 'medium', 'Logging: the System Log is exported and kept.'),
    control('8.16', 'hooks.event_hooks_verified', 'low', 'Monitoring activities: event hooks are verified.'),
  ],
};
