import type { ProviderDescriptor } from '@libs/providers/provider-descriptor.js';

import { WORKFLOWS_CHECKS } from './workflows-compliance.js';
import { flowCardChanges } from './card-changes.js';
import { workflowsRestorePackage } from './restore-package.js';
import { WORKFLOWS_SCOPES } from './workflows-scopes.js';
import { WORKFLOWS_SEVERITY_RULES } from './workflows-severity-rules.js';
import { EXPORTED, recordsOfExportFile, WORKFLOWS_RESOURCE_TYPES } from './workflow-records.js';

/** What an export never holds (Okta Workflows help "Export and import flows"), as record paths. */
const NOT_CAPTURED = {
  // `active` comes from the System Log when it names the flow (workflows-connector.ts flowStates).
  workflow: ['executions'],
  workflow_connection: ['data'],
};

/**
 * Okta Workflows (DESIGN section 4: `okta_workflows`, with `org_url`, `client_id`, `private_key` and
 * `flow_alias`): an API Services app of the Okta org with a key pair, granted
 * `okta.workflows.invoke.manage` and `okta.logs.read`, invokes the exporter flow the admin imported
 * (docs/okta-workflows.md). Workflows has no management API, so nothing is written back: a restore
 * is a re-import package.
 */
export const WORKFLOWS_PROVIDER: ProviderDescriptor = {
  kind: 'okta_workflows',
  label: 'Okta Workflows',
  credentials: [
    {
      name: 'client_id',
      secret: false,
      maxLength: 256,
      description: 'Client id of the API Services app (public key authentication).',
    },
    {
      name: 'private_key',
      secret: true,
      maxLength: 16_384,
      description: "The API Services app's private key, PEM or private JWK (for private_key_jwt).",
    },
    {
      name: 'flow_alias',
      secret: false,
      maxLength: 200,
      example: 'idp-backup-exporter',
      description: "The alias of the exporter flow's API endpoint (docs/okta-workflows.md).",
    },
  ],
  // Okta's clouds and their Workflows hosts (`{org}.workflows.okta.com` is under `*.okta.com`).
  cloudHosts: ['*.okta.com', '*.oktapreview.com', '*.okta-emea.com'],
  resourceTypes: WORKFLOWS_RESOURCE_TYPES,
  categories: {
    flows: ['workflow_folder', 'workflow'],
    tables: ['workflow_table'],
    connections: ['workflow_connection'],
  },
  volatileFields: [EXPORTED],
  severityRules: WORKFLOWS_SEVERITY_RULES,
  changeAttributionUnavailable: 'Okta Workflows has no audit log API that names who changed a flow.',
  scopingParents: {},
  notCaptured: NOT_CAPTURED,
  changeParts: flowCardChanges,
  recordsOfUpload: recordsOfExportFile,
  restorePackage: workflowsRestorePackage,
  // The System Log records every Workflows change (workflows.user.*): no export when none.
  skipsUnchanged: true,
  grants: () => [...WORKFLOWS_SCOPES],
  complianceChecks: WORKFLOWS_CHECKS,
  async connect(options) {
    const { WorkflowsConnector } = await import('./workflows-connector.js');
    return new WorkflowsConnector({
      orgUrl: options.orgUrl,
      clientId: options.credentials.client_id,
      privateKey: options.credentials.private_key,
      flowAlias: options.credentials.flow_alias,
      allowedHosts: [...this.cloudHosts, ...options.extraAllowedHosts],
      caCertPem: options.caCertPem,
      userAgent: options.userAgent,
      headroom: options.headroom,
      notCaptured: NOT_CAPTURED,
    });
  },
};
