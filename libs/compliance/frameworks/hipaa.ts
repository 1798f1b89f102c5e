import { control, type Framework } from './framework-types.js';
import { THRESHOLDS as T } from './thresholds.js';

/**
 * HIPAA Security Rule, 45 CFR 164.308 and 164.312. The rule gives no numbers: each threshold is
 * a recommended value and the requirement names its source.
 */
export const HIPAA: Framework = {
  id: 'hipaa',
  name: 'HIPAA Security Rule (45 CFR Part 164 Subpart C)',
  version: '2013 text; 2025 NPRM values where noted',
  controls: [
    control(
      '164.308(a)(3)(ii)(C)',
      'users.deprovisioned_access',
      'critical',
      'Termination procedures: deactivated users hold no app assignments.',
    ),
    control(
      '164.308(a)(3)(ii)(C)',
      'admins.deactivated_with_roles',
      'critical',
      'Termination procedures: deactivated users hold no admin roles.',
    ),
    control(
      '164.308(a)(4)(ii)(B)',
      'admins.super_admin_count',
      'medium',
      'Access authorization: 2 to 5 super administrators (recommended values).',
      T.superAdmins,
    ),
    control(
      '164.308(a)(4)(ii)(C)',
      'users.inactive',
      'medium',
      'Access modification: accounts unused for 90 days disabled (PCI DSS 8.2.6 value, recommended).',
      T.inactiveDays90,
    ),
    control(
      '164.308(a)(4)(ii)(C)',
      'access.direct_assignments',
      'low',
      'Access establishment through groups, at most 25 % direct assignments (recommended value).',
      T.directAssignments,
    ),
    control(
      '164.308(a)(5)(ii)(C)',
      'password.lockout',
      'medium',
      'Log-in monitoring: lock after at most 10 attempts for 30 minutes (PCI DSS 8.3.4 values, recommended).',
      T.pciLockout,
    ),
    control(
      '164.308(a)(5)(ii)(D)',
      'password.min_length',
      'high',
      'Password management: 15 characters, 8 with MFA (SP 800-63B-4 values, recommended).',
      T.nistPasswordLength,
    ),
    control(
      '164.308(a)(5)(ii)(D)',
      'password.common_excluded',
      'medium',
      'Password management: common passwords refused (SP 800-63B, recommended).',
    ),
    control(
      '164.308(a)(7)(ii)(A)',
      'backup.cadence',
      'high',
      'Data backup plan: backups no older than 48 hours (2025 NPRM value).',
      T.backup48h,
    ),
    control(
      '164.308(a)(7)(ii)(D)',
      'backup.restore_tested',
      'medium',
      'Testing of contingency plans: a restore tested within 90 days (CIS Controls 11.5 value, recommended).',
      T.restoreQuarterly,
    ),
    control(
      '164.312(a)(2)(i)',
      'users.shared_accounts',
      'medium',
      'Unique user identification: no shared or generic accounts.',
    ),
    control(
      '164.312(a)(2)(ii)',
      'admins.super_admin_count',
      'high',
      'Emergency access procedure: at least 2 super administrators for break-glass.',
      T.superAdmins,
    ),
    control(
      '164.312(a)(2)(iii)',
      'session.idle_timeout',
      'medium',
      'Automatic logoff after 15 minutes idle (FedRAMP AC-11 value, recommended).',
      T.idle15,
    ),
    control(
      '164.312(b)',
      'logging.log_streaming',
      'medium',
      "Audit controls: System Log exported beyond Okta's 90 days.",
    ),
    control(
      '164.312(d)',
      'mfa.global_session',
      'high',
      'Person or entity authentication: the global session policy requires MFA.',
    ),
    control(
      '164.312(d)',
      'mfa.app_access',
      'high',
      'Person or entity authentication: app sign-in policies require two factors.',
    ),
    control(
      '164.312(d)',
      'mfa.admin_console',
      'critical',
      'Person or entity authentication: the Admin Console requires two factors.',
    ),
  ],
};
