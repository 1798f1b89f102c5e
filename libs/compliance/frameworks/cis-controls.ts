import { control, type Framework } from './framework-types.js';
import { THRESHOLDS as T } from './thresholds.js';

/** CIS Critical Security Controls v8, the safeguards an identity provider's configuration shows. */
export const CIS_CONTROLS: Framework = {
  id: 'cis_controls',
  name: 'CIS Critical Security Controls',
  version: 'v8',
  controls: [
    control(
      '5.2',
      'password.min_length',
      'high',
      'Unique passwords: at least 14 characters for accounts without MFA, 8 with MFA.',
      { minLength: 14, minLengthWithMfa: 8 },
    ),
    control(
      '5.3',
      'users.inactive',
      'medium',
      'Delete or disable dormant accounts after 45 days of inactivity.',
      { maxInactiveDays: 45 },
    ),
    control(
      '5.4',
      'admins.super_admin_count',
      'high',
      'Restrict administrator privileges: 2 to 5 super administrators (recommended values).',
      T.superAdmins,
    ),
    control(
      '6.2',
      'users.deprovisioned_access',
      'high',
      'Revoke access on termination: no app assignments left on deactivated users.',
    ),
    control(
      '6.2',
      'admins.deactivated_with_roles',
      'high',
      'Revoke access on termination: no admin roles left on deactivated users.',
    ),
    control(
      '6.3',
      'mfa.app_access',
      'high',
      'MFA for externally exposed applications, through the SSO provider.',
    ),
    control(
      '6.4',
      'mfa.global_session',
      'high',
      'MFA for remote access: the global session policy requires a second factor.',
    ),
    control(
      '6.5',
      'mfa.admin_console',
      'critical',
      'MFA for all administrative access (the Okta Admin Console).',
    ),
    control(
      '6.5',
      'mfa.admin_enrollment',
      'high',
      'MFA for all administrative access: administrators must enrol a second factor.',
    ),
    control(
      '6.8',
      'access.direct_assignments',
      'low',
      'Role-based access: apps assigned through groups, at most 25 % directly (recommended value).',
      T.directAssignments,
    ),
    control(
      '8.2',
      'logging.log_streaming',
      'medium',
      'Collect audit logs beyond the provider (log streaming).',
    ),
    control('11.2', 'backup.cadence', 'high', 'Run backups weekly, or more frequently.', T.backupWeekly),
    control(
      '11.5',
      'backup.restore_tested',
      'high',
      'Test backup recovery quarterly, or more frequently.',
      T.restoreQuarterly,
    ),
    // Microsoft Entra ID (docs/compliance.md "Microsoft Entra ID"): CISA SCuBA and CIS Microsoft 365 policies.
    control(
      '6.3',
      'access.legacy_auth_blocked',
      'high',
      'Legacy authentication, which cannot do MFA, is blocked (SCuBA MS.AAD.1.1v1).',
    ),
    control(
      '6.3',
      'access.baseline_protection',
      'high',
      'Baseline sign-in protection: security defaults, or conditional access requiring MFA in their place (CIS Microsoft 365 5.1.1.1).',
    ),
    control(
      '6.3',
      'mfa.phishing_resistant_all',
      'medium',
      'Phishing-resistant MFA for all users (SCuBA MS.AAD.3.1v1).',
    ),
    control(
      '2.5',
      'apps.user_registration',
      'medium',
      'Only administrators register applications (SCuBA MS.AAD.5.1v1).',
    ),
    control(
      '2.5',
      'apps.user_consent',
      'high',
      'Only administrators consent to applications reading company data (SCuBA MS.AAD.5.2v1, CIS Microsoft 365 5.1.5.1).',
    ),
    control(
      '5.4',
      'admins.cloud_only',
      'high',
      'Privileged accounts are cloud-only, not synchronised from on-premises (SCuBA MS.AAD.7.3v1).',
    ),
    control(
      '5.4',
      'admins.permanent_assignments',
      'high',
      'No permanent active assignment of highly privileged roles (SCuBA MS.AAD.7.4v1).',
    ),
    control(
      '5.4',
      'admins.activation_approval',
      'high',
      'Activating Global Administrator requires approval (SCuBA MS.AAD.7.6v1).',
    ),
    control(
      '3.3',
      'guests.access_restricted',
      'medium',
      'Guest users have limited or restricted directory access (SCuBA MS.AAD.8.1v1).',
    ),
    control(
      '6.1',
      'guests.invite_restricted',
      'medium',
      'Only administrators and Guest Inviters invite guests (SCuBA MS.AAD.8.2v1).',
    ),
    control(
      '6.1',
      'guests.invite_domains',
      'low',
      'Guests are invited only from allowed domains (SCuBA MS.AAD.8.3v1).',
    ),
    control(
      '6.5',
      'mfa.phishing_resistant_admins',
      'high',
      'MFA for administrative access: phishing-resistant (SCuBA MS.AAD.3.6v1).',
    ),
  ],
};
