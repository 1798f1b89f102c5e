import { type EntraCheck, outsideBackup } from './entra-outcomes.js';

/**
 * MS.AAD.2.2v1: a notification SHOULD be sent to the administrator when high-risk users are
 * detected. ScubaGear does not check it either (AADConfig.rego: "NotCheckedDetails"): Identity
 * Protection's alert recipients have no Microsoft Graph v1.0 API.
 */
const highRiskNotification = outsideBackup({
  key: 'risk.high_risk_notification',
  id: 'entra.risk.high_risk_notification',
  policy: 'MS.AAD.2.2v1',
  title: 'Administrators are notified of high-risk users',
  remediation:
    'In Entra ID Protection > Notifications, send "Users at risk detected" alerts at risk level High to the security team.',
  resourceType: 'identity_protection_notifications',
  note: 'Identity Protection’s "Users at risk detected" alert settings have no Microsoft Graph v1.0 API, so no backup holds them (ScubaGear does not check them either). Review them in Entra ID Protection > Notifications.',
});

/**
 * MS.AAD.4.1v1: security logs SHALL be sent to the agency's security operations center. ScubaGear
 * does not check it (AADConfig.rego: "NotCheckedDetails"): Entra's diagnostic settings live in
 * Azure Resource Manager (`microsoft.aadiam/diagnosticSettings`), not in Microsoft Graph.
 */
const securityLogsExported = outsideBackup({
  key: 'logging.log_streaming',
  id: 'entra.logging.diagnostic_settings',
  policy: 'MS.AAD.4.1v1',
  title: 'Entra ID logs are sent to the security operations center',
  remediation:
    'In Entra ID > Monitoring > Diagnostic settings, send AuditLogs, SignInLogs, NonInteractiveUserSignInLogs, ServicePrincipalSignInLogs, RiskyUsers, UserRiskEvents and MicrosoftGraphActivityLogs to the SOC’s workspace or event hub.',
  resourceType: 'diagnostic_setting',
  note: 'Entra ID’s diagnostic settings are Azure Resource Manager resources (microsoft.aadiam/diagnosticSettings, read with an Azure role such as Monitoring Reader), not Microsoft Graph ones: a backup cannot hold them. Review them in Entra ID > Monitoring > Diagnostic settings.',
});

/** Checks of what reaches the security team (SCuBA MS.AAD.2.2, 4.1): outside any Graph backup. */
export const MONITORING_CHECKS: readonly EntraCheck[] = [highRiskNotification, securityLogsExported];
