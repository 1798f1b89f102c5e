import type { ProviderDescriptor } from '@libs/providers/provider-descriptor.js';

import { ENTRA_CHECKS } from './compliance/index.js';
import { AUDIT_LOG_PERMISSION } from './entra-audit-log.js';
import { ENTRA_NOT_CAPTURED, ENTRA_VOLATILE_FIELDS } from './entra-not-captured.js';
import { ENTRA_RESOURCE_TYPES, entraBackupPermissions } from './entra-resource-catalog.js';
import { ENTRA_SEVERITY_RULES } from './entra-severity-rules.js';
import { entraRestorePermissions } from './restore/entra-restore-permissions.js';
import { ENTRA_SERVER_OWNED } from './restore/entra-restore-definition.js';

/**
 * Microsoft Entra ID (spec "Connections": `entra_id`, with `tenant_id`, `client_id` and
 * `client_secret` or `client_certificate`): an app registration in the customer's tenant with Microsoft Graph
 * application permissions an admin consented to, reached with the client credentials flow. The
 * connection's `org_url` is Graph's origin, `https://graph.microsoft.com` unless the operator
 * points it at another allowed host (the simulator).
 */
export const ENTRA_PROVIDER: ProviderDescriptor = {
  kind: 'entra_id',
  label: 'Microsoft Entra ID',
  defaultOrgUrl: 'https://graph.microsoft.com',
  credentials: [
    {
      name: 'tenant_id',
      secret: false,
      maxLength: 256,
      createOnly: true,
      description: 'Directory (tenant) id, or one of its verified domains.',
    },
    {
      name: 'client_id',
      secret: false,
      maxLength: 256,
      description: 'Application (client) id of the app registration.',
    },
    {
      name: 'client_secret',
      secret: true,
      maxLength: 1024,
      oneOf: 'client_credential',
      description: 'A client secret of the app registration.',
    },
    {
      name: 'client_certificate',
      secret: true,
      oneOf: 'client_credential',
      // A PEM certificate and an RSA key of up to 8192 bits take about 10 KB; a chain besides, more.
      maxLength: 32_768,
      example:
        '-----BEGIN CERTIFICATE-----\n...\n-----END CERTIFICATE-----\n-----BEGIN PRIVATE KEY-----\n...\n-----END PRIVATE KEY-----\n',
      description:
        "A certificate uploaded to the app registration, PEM, with its unencrypted RSA private key (Microsoft's recommendation for app-only access).",
    },
  ],
  // The identity platform's global authority and Graph's global endpoint (Microsoft "National
  // clouds" lists the others, not supported yet).
  cloudHosts: ['login.microsoftonline.com', 'graph.microsoft.com'],
  resourceTypes: ENTRA_RESOURCE_TYPES,
  categories: {
    users: ['user', 'user_manager', 'user_license', 'user_extension_values'],
    groups: ['group', 'group_membership', 'group_owner', 'group_setting', 'group_lifecycle_policy'],
    administrative_units: ['administrative_unit', 'administrative_unit_member'],
    apps: [
      'default_app_management_policy',
      'app_management_policy',
      'application',
      'application_owner',
      'federated_identity_credential',
      'extension_property',
      'service_principal',
      'app_role_assignment',
      'oauth2_permission_grant',
    ],
    roles: [
      'role_definition',
      'role_management_policy',
      'role_management_policy_assignment',
      'role_eligibility_schedule',
      'role_assignment_schedule',
      'role_assignment',
      'scoped_role_membership',
    ],
    conditional_access: [
      'named_location',
      'authentication_context_class_reference',
      'terms_of_use_agreement',
      'authentication_strength_policy',
      'conditional_access_policy',
    ],
    policies: [
      'authorization_policy',
      'authentication_methods_policy',
      'authentication_method_configuration',
      'identity_security_defaults_enforcement_policy',
      'admin_consent_request_policy',
      'permission_grant_policy',
      'token_lifetime_policy',
      'token_issuance_policy',
      'claims_mapping_policy',
      'home_realm_discovery_policy',
    ],
    cross_tenant_access: [
      'cross_tenant_access_policy',
      'cross_tenant_access_policy_configuration_default',
      'cross_tenant_access_policy_configuration_partner',
    ],
    tenant: [
      'organization',
      'organizational_branding',
      'domain',
      'domain_federation_configuration',
      'attribute_set',
      'custom_security_attribute_definition',
      'identity_provider',
    ],
  },
  volatileFields: ENTRA_VOLATILE_FIELDS,
  // What Graph sets itself (entra-restore-definition.ts), and the volatile fields.
  serverOwnedFields: [...ENTRA_SERVER_OWNED, ...ENTRA_VOLATILE_FIELDS],
  severityRules: ENTRA_SEVERITY_RULES,
  // Who changed what: Graph's directory audit log (entra-attribution.ts), AuditLog.Read.All.
  attributesChanges: true,
  scopingParents: {},
  notCaptured: ENTRA_NOT_CAPTURED,
  // A connection is made with the directory audit's permission too (drift, who changed what).
  grants: (restoreTypes) => [
    ...(restoreTypes ? entraRestorePermissions(restoreTypes) : entraBackupPermissions()),
    AUDIT_LOG_PERMISSION,
  ],
  complianceChecks: ENTRA_CHECKS,
  restoreOptions: [
    {
      name: 'enforce',
      default: false,
      // The lockout rule: lockout-check.ts.
      description:
        'Enable conditional access policies the backup has enabled even when they would block every Global Administrator; otherwise those are restored report-only and flagged.',
    },
  ],
  async connect(options) {
    const { EntraConnector } = await import('./entra-connector.js');
    return new EntraConnector({
      graphUrl: options.orgUrl,
      tenantId: options.credentials.tenant_id,
      clientId: options.credentials.client_id,
      clientSecret: options.credentials.client_secret,
      clientCertificate: options.credentials.client_certificate,
      allowedHosts: [...this.cloudHosts, ...options.extraAllowedHosts],
      caCertPem: options.caCertPem,
      userAgent: options.userAgent,
      headroom: options.headroom,
      replicationWaitMs:
        options.replicationWaitSeconds === undefined ? undefined : options.replicationWaitSeconds * 1000,
      conditionalAccessIntervalMs: options.conditionalAccessIntervalMs,
    });
  },
};
