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
    // Microsoft Entra ID (docs/compliance.md "Microsoft Entra ID"): CISA SCuBA and CIS Microsoft 365 policies.
    control(
      '164.312(d)',
      'access.legacy_auth_blocked',
      'high',
      'Legacy authentication, which cannot do MFA, is blocked (SCuBA MS.AAD.1.1v1).',
    ),
    control(
      '164.312(d)',
      'access.baseline_protection',
      'high',
      'Baseline sign-in protection: security defaults, or conditional access requiring MFA in their place (CIS Microsoft 365 5.1.1.1).',
    ),
    control(
      '164.312(d)',
      'mfa.phishing_resistant_all',
      'medium',
      'Phishing-resistant MFA for all users (SCuBA MS.AAD.3.1v1).',
    ),
    control(
      '164.310(c)',
      'access.managed_devices',
      'medium',
      'Access only from managed (compliant or hybrid joined) devices (SCuBA MS.AAD.3.7v1).',
    ),
    control(
      '164.308(a)(5)(ii)(D)',
      'password.self_service_reset',
      'low',
      'Self-service password reset for all users (CIS Microsoft 365 5.2.4.1).',
    ),
    control(
      '164.308(a)(5)(ii)(C)',
      'risk.high_risk_users_blocked',
      'high',
      'Users detected as high risk are blocked (SCuBA MS.AAD.2.1v1).',
    ),
    control(
      '164.308(a)(5)(ii)(C)',
      'risk.high_risk_signins_blocked',
      'high',
      'Sign-ins detected as high risk are blocked (SCuBA MS.AAD.2.3v1).',
    ),
    control(
      '164.308(a)(4)(ii)(B)',
      'apps.user_consent',
      'high',
      'Only administrators consent to applications reading company data (SCuBA MS.AAD.5.2v1, CIS Microsoft 365 5.1.5.1).',
    ),
    control(
      '164.308(a)(4)(ii)(B)',
      'apps.admin_consent_workflow',
      'medium',
      'Consent requests go to named reviewers (SCuBA MS.AAD.5.3v1).',
    ),
    control(
      '164.308(a)(4)(ii)(B)',
      'apps.group_owner_consent',
      'medium',
      'Group owners cannot consent to applications (SCuBA MS.AAD.5.4v1).',
    ),
    control(
      '164.308(a)(4)(ii)(B)',
      'admins.cloud_only',
      'high',
      'Privileged accounts are cloud-only, not synchronised from on-premises (SCuBA MS.AAD.7.3v1).',
    ),
    control(
      '164.308(a)(4)(ii)(B)',
      'admins.permanent_assignments',
      'high',
      'No permanent active assignment of highly privileged roles (SCuBA MS.AAD.7.4v1).',
    ),
    control(
      '164.308(a)(4)(ii)(B)',
      'admins.activation_approval',
      'high',
      'Activating Global Administrator requires approval (SCuBA MS.AAD.7.6v1).',
    ),
    control(
      '164.312(b)',
      'admins.assignment_alerts',
      'medium',
      'Assigning a highly privileged role raises an alert (SCuBA MS.AAD.7.7v1).',
    ),
    control(
      '164.312(b)',
      'admins.activation_alerts',
      'medium',
      'Activating Global Administrator raises an alert (SCuBA MS.AAD.7.8v1).',
    ),
    control(
      '164.308(a)(4)(ii)(B)',
      'guests.access_restricted',
      'medium',
      'Guest users have limited or restricted directory access (SCuBA MS.AAD.8.1v1).',
    ),
    control(
      '164.308(a)(4)(ii)(C)',
      'guests.invite_restricted',
      'medium',
      'Only administrators and Guest Inviters invite guests (SCuBA MS.AAD.8.2v1).',
    ),
    control(
      '164.312(d)',
      'mfa.phishing_resistant_admins',
      'high',
      'Person or entity authentication: administrators use a phishing-resistant authenticator (SCuBA MS.AAD.3.6v1).',
    ),
  ],
};
