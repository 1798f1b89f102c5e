import { control, type Framework } from './framework-types.js';
import { THRESHOLDS as T } from './thresholds.js';

/**
 * AICPA Trust Services Criteria (2017, points of focus revised 2022). The criteria give no
 * numbers: thresholds are recommended values from NIST, PCI DSS, CIS and the HIPAA NPRM.
 */
export const SOC2: Framework = {
  id: 'soc2',
  name: 'SOC 2 (AICPA Trust Services Criteria)',
  version: '2017 TSC, 2022 points of focus',
  controls: [
    control(
      'CC6.1',
      'password.min_length',
      'high',
      'Logical access security: 15 characters, 8 with MFA (SP 800-63B-4 values, recommended).',
      T.nistPasswordLength,
    ),
    control(
      'CC6.1',
      'password.lockout',
      'medium',
      'Lock after at most 10 attempts for 30 minutes (PCI DSS 8.3.4 values, recommended).',
      T.pciLockout,
    ),
    control('CC6.1', 'mfa.global_session', 'high', 'The global session policy requires a second factor.'),
    control('CC6.1', 'mfa.app_access', 'high', 'App sign-in policies require two factors.'),
    control('CC6.1', 'mfa.admin_console', 'critical', 'The Admin Console requires two factors.'),
    control(
      'CC6.1',
      'session.idle_timeout',
      'medium',
      'Sessions end after 15 minutes idle (FedRAMP AC-11 value, recommended).',
      T.idle15,
    ),
    control(
      'CC6.1',
      'network.threat_insight',
      'medium',
      'ThreatInsight blocks or logs suspicious sign-in attempts.',
    ),
    control(
      'CC6.2',
      'users.deprovisioned_access',
      'critical',
      'Credentials removed when access is no longer authorized: no app assignments on deactivated users.',
    ),
    control(
      'CC6.2',
      'users.inactive',
      'medium',
      'Accounts unused for 90 days disabled (PCI DSS 8.2.6 value, recommended).',
      T.inactiveDays90,
    ),
    control(
      'CC6.3',
      'admins.super_admin_count',
      'high',
      'Least privilege: 2 to 5 super administrators (recommended values).',
      T.superAdmins,
    ),
    control(
      'CC6.3',
      'admins.deactivated_with_roles',
      'high',
      'Roles removed when access ends: no admin roles on deactivated users.',
    ),
    control(
      'CC6.3',
      'access.direct_assignments',
      'low',
      'Role-based access: at most 25 % direct app assignments (recommended value).',
      T.directAssignments,
    ),
    control(
      'CC6.3',
      'integrations.api_service_scopes',
      'medium',
      'Service integrations hold least privilege.',
    ),
    control(
      'CC6.6',
      'network.blocklist_zone',
      'medium',
      'Threats from outside the boundary: a blocklist network zone is active.',
    ),
    control('CC6.6', 'network.zone_policies', 'low', 'Sign-in policies use network zones.'),
    control('CC6.6', 'network.trusted_origins', 'medium', 'Trusted origins are HTTPS and not local.'),
    control(
      'CC7.1',
      'backup.cadence',
      'high',
      'Configuration changes detected: snapshots compared at least every 48 hours (HIPAA NPRM value, recommended).',
      T.backup48h,
    ),
    control('CC7.1', 'hooks.event_hooks_verified', 'low', 'Change feeds (event hooks) are verified.'),
    control(
      'CC7.2',
      'logging.log_streaming',
      'medium',
      'Components monitored: the System Log is streamed out.',
    ),
    control(
      'A1.2',
      'backup.cadence',
      'high',
      'Backups at least every 48 hours (HIPAA NPRM value, recommended).',
      T.backup48h,
    ),
    control(
      'A1.3',
      'backup.restore_tested',
      'high',
      'Recovery plan tested: a restore within 90 days (CIS Controls 11.5 value, recommended).',
      T.restoreQuarterly,
    ),
  ],
};
