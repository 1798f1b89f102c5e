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
    // Microsoft Entra ID (docs/compliance.md "Microsoft Entra ID"): CISA SCuBA and CIS Microsoft 365 policies.
    control(
      '8.4.2',
      'access.legacy_auth_blocked',
      'high',
      'Legacy authentication, which cannot do MFA, is blocked (SCuBA MS.AAD.1.1v1).',
    ),
    control(
      '8.4.2',
      'access.baseline_protection',
      'high',
      'Baseline sign-in protection: security defaults, or conditional access requiring MFA in their place (CIS Microsoft 365 5.1.1.1).',
    ),
    control(
      '8.5.1',
      'mfa.phishing_resistant_all',
      'medium',
      'Phishing-resistant MFA for all users (SCuBA MS.AAD.3.1v1).',
    ),
    control(
      '7.2.1',
      'apps.user_consent',
      'high',
      'Only administrators consent to applications reading company data (SCuBA MS.AAD.5.2v1, CIS Microsoft 365 5.1.5.1).',
    ),
    control(
      '7.2.1',
      'apps.group_owner_consent',
      'medium',
      'Group owners cannot consent to applications (SCuBA MS.AAD.5.4v1).',
    ),
    control(
      '7.2.2',
      'admins.cloud_only',
      'high',
      'Privileged accounts are cloud-only, not synchronised from on-premises (SCuBA MS.AAD.7.3v1).',
    ),
    control(
      '7.2.2',
      'admins.permanent_assignments',
      'high',
      'No permanent active assignment of highly privileged roles (SCuBA MS.AAD.7.4v1).',
    ),
    control(
      '7.2.2',
      'admins.activation_approval',
      'high',
      'Activating Global Administrator requires approval (SCuBA MS.AAD.7.6v1).',
    ),
    control(
      '10.2.1',
      'admins.assignment_alerts',
      'medium',
      'Assigning a highly privileged role raises an alert (SCuBA MS.AAD.7.7v1).',
    ),
    control(
      '10.2.1',
      'admins.activation_alerts',
      'medium',
      'Activating Global Administrator raises an alert (SCuBA MS.AAD.7.8v1).',
    ),
    control(
      '7.2.1',
      'guests.access_restricted',
      'medium',
      'Guest users have limited or restricted directory access (SCuBA MS.AAD.8.1v1).',
    ),
  ],
};
