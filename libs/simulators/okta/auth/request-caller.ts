import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Who made the Management API request being served, as Okta's System Log records it (OpenAPI
 * `LogEvent.actor` and `LogEvent.client`): an API token acts as the admin who created it
 * (Okta "Create an API token": the token is tied to that admin and acts with their
 * permissions); an OAuth 2.0 access token of a service app acts as the app itself, a
 * `PublicClientApp` actor whose id is the client id (Okta "Implement OAuth for Okta with a
 * service app"). `client.ipAddress` and `client.userAgent.rawUserAgent` are the request's.
 */
export interface RequestCaller {
  who: { kind: 'user'; userId: string | null } | { kind: 'client'; clientId: string };
  ipAddress: string;
  userAgent: string;
}

/** The caller of the request being served; undefined outside a request (seeding, the test's own writes). */
export const requestCallers = new AsyncLocalStorage<RequestCaller>();
