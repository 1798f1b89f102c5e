import type { ProviderDescriptor } from '@libs/providers/provider-descriptor.js';
import { OKTA_RESOURCE_TYPES, type OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';

import { OKTA_CATEGORIES } from './okta-categories.js';
import { OKTA_CHECKS } from './compliance/index.js';
import { OKTA_NOT_CAPTURED } from './okta-not-captured.js';
import { OKTA_BACKUP_SCOPES, oktaRestoreScopes } from './okta-scopes.js';
import { OKTA_SCOPING_PARENTS, OKTA_SEVERITY_RULES } from './severity/okta-severity-rules.js';
import { OKTA_VOLATILE_FIELDS } from './okta-volatile-fields.js';
import { SERVER_OWNED } from './restore/restore-definition.js';

/**
 * Okta (spec: the primary provider kind): a connection is an API service integration installed
 * from the Okta Integration Network, which gets tokens with the client credentials grant
 * (client_secret_basic) for the scopes a backup or restore needs.
 */
export const OKTA_PROVIDER: ProviderDescriptor = {
  kind: 'okta',
  label: 'Okta',
  credentials: [
    {
      name: 'client_id',
      secret: false,
      maxLength: 256,
      description: 'Client id of the Okta API service integration.',
    },
    { name: 'client_secret', secret: true, maxLength: 1024, description: "The integration's client secret." },
  ],
  // Okta's own clouds (Okta "Okta org URLs": okta.com, oktapreview.com, okta-emea.com).
  cloudHosts: ['*.okta.com', '*.oktapreview.com', '*.okta-emea.com'],
  resourceTypes: OKTA_RESOURCE_TYPES,
  categories: OKTA_CATEGORIES,
  volatileFields: OKTA_VOLATILE_FIELDS,
  // The fields a restore never writes (restore-definition.ts): the volatile ones and Okta's stamps.
  serverOwnedFields: SERVER_OWNED,
  severityRules: OKTA_SEVERITY_RULES,
  // Who changed what: the System Log (okta-attribution.ts).
  attributesChanges: true,
  scopingParents: OKTA_SCOPING_PARENTS,
  notCaptured: OKTA_NOT_CAPTURED,
  grants: (restoreTypes) =>
    restoreTypes ? oktaRestoreScopes(restoreTypes as OktaResourceType[]) : [...OKTA_BACKUP_SCOPES],
  complianceChecks: OKTA_CHECKS,
  // Okta Workflows of the same org (docs/okta-workflows.md): its `_embedded` is volatile here too.
  workflowsKind: 'okta_workflows',
  async connect(options) {
    const { OktaConnector } = await import('./okta-connector.js');
    return new OktaConnector({
      orgUrl: options.orgUrl,
      clientId: options.credentials.client_id,
      clientSecret: options.credentials.client_secret,
      allowedHosts: [...this.cloudHosts, ...options.extraAllowedHosts],
      caCertPem: options.caCertPem,
      userAgent: options.userAgent,
      headroom: options.headroom,
      idleHeadroom: options.idleHeadroom,
      scopes: options.restoreTypes && this.grants(options.restoreTypes),
    });
  },
};
