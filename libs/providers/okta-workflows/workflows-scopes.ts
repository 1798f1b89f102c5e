/**
 * Scopes the API Services app is granted: invoke OAuth-secured API endpoint flows (Okta Workflows
 * "Secure an API endpoint flow with OAuth 2.0") and read the System Log, which says whether
 * anything changed since the last backup.
 */
export const WORKFLOWS_SCOPES = ['okta.workflows.invoke.manage', 'okta.logs.read'] as const;
