import { control, type Framework } from './framework-types.js';
import { THRESHOLDS as T } from './thresholds.js';

/** NIST SP 800-53 rev. 5 with the FedRAMP rev. 5 Moderate parameter values, and SP 800-63B. */
export const NIST: Framework = {
  id: 'nist',
  name: 'NIST SP 800-53 rev. 5 (FedRAMP Moderate)',
  version: 'rev. 5, FedRAMP baseline 2024-01-11',
  controls: [
    control(
      'AC-2',
      'users.deprovisioned_access',
      'high',
      'Accounts no longer associated with a user hold no access.',
    ),
    control(
      'AC-2(3)',
      'users.inactive',
      'high',
      'Disable accounts after 90 days of inactivity (FedRAMP Moderate ac-02.03_odp.02).',
      T.inactiveDays90,
    ),
    control(
      'AC-6(5)',
      'admins.super_admin_count',
      'high',
      'Privileged accounts restricted: 2 to 5 super administrators (recommended values).',
      T.superAdmins,
    ),
    control(
      'AC-6(5)',
      'admins.deactivated_with_roles',
      'high',
      'Privileged roles are not left on deactivated accounts.',
    ),
    control(
      'AC-7',
      'password.lockout',
      'medium',
      'Limit consecutive invalid attempts in alignment with SP 800-63B: at most 100.',
      { maxAttempts: 100, minLockoutMinutes: 0 },
    ),
    control(
      'AC-11',
      'session.idle_timeout',
      'medium',
      'Lock the session after 15 minutes of inactivity (FedRAMP Moderate ac-11_odp.02).',
      T.idle15,
    ),
    control(
      'AC-12',
      'session.lifetime',
      'medium',
      'Terminate sessions after at most 12 hours (SP 800-63B AAL2 reauthentication).',
      T.lifetime12h,
    ),
    control(
      'IA-2(1)',
      'mfa.admin_console',
      'critical',
      'MFA for privileged accounts: the Admin Console requires two factors.',
    ),
    control(
      'IA-2(1)',
      'mfa.admin_enrollment',
      'high',
      'MFA for privileged accounts: administrators must enrol a second factor.',
    ),
    control(
      'IA-2(2)',
      'mfa.global_session',
      'high',
      'MFA for non-privileged accounts: the global session policy requires a second factor.',
    ),
    control(
      'IA-2(2)',
      'mfa.app_access',
      'high',
      'MFA for non-privileged accounts: app sign-in policies require two factors.',
    ),
    control(
      'IA-2(8)',
      'mfa.phishing_resistant_admins',
      'high',
      'Replay-resistant authentication for privileged access: a phishing-resistant authenticator.',
    ),
    control(
      'IA-2(8)',
      'authenticators.weak_factors',
      'medium',
      'No authenticator open to replay (SMS, voice, security question) for authentication.',
    ),
    control(
      'IA-5(1)',
      'password.min_length',
      'high',
      'SP 800-63B-4: at least 15 characters when the password is the only factor, 8 when MFA is required.',
      T.nistPasswordLength,
    ),
    control(
      'IA-5(1)',
      'password.common_excluded',
      'high',
      'SP 800-63B: passwords are checked against lists of common passwords.',
    ),
    control('IA-5(1)', 'password.max_age', 'low', 'SP 800-63B: no periodic password change.', {
      noExpiry: true,
    }),
    control(
      'IA-5',
      'password.recovery_factors',
      'low',
      'Authenticator management: no password recovery by SMS, voice or security question (SP 800-63B).',
    ),
    control(
      'AC-12',
      'session.persistent_cookie',
      'low',
      'Sessions end with the browser: no persistent session cookie.',
    ),
    control(
      'AU-6',
      'logging.log_streaming',
      'medium',
      'Audit records are exported for review and retention.',
    ),
    control('SI-4', 'hooks.event_hooks_verified', 'low', 'Monitoring feeds (event hooks) are verified.'),
    control(
      'SC-7',
      'network.blocklist_zone',
      'medium',
      'Boundary protection: a blocklist network zone is active.',
    ),
    control(
      'CP-9',
      'backup.cadence',
      'high',
      'System backups at least weekly (CIS Controls 11.2 value, recommended).',
      T.backupWeekly,
    ),
    control(
      'CP-4',
      'backup.restore_tested',
      'high',
      'Recovery tested within 90 days (CIS Controls 11.5 value, recommended).',
      T.restoreQuarterly,
    ),
  ],
};
