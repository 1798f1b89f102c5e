export { isAllowedHost } from '@libs/providers/kit/allowed-hosts.js';
export { OktaConnector, type OktaConnectorOptions } from './okta-connector.js';
export { PAGE_LIMITS, POLICY_TYPES } from './okta-endpoints.js';
export { OKTA_BACKUP_SCOPES } from './okta-scopes.js';
