import type { IncomingHttpHeaders } from 'node:http';

import { accessDenied, invalidToken } from '@libs/simulators/okta/http/okta-error.js';
import type { CredentialStore } from './credential-store.js';
import type { RequestCaller } from './request-caller.js';

/**
 * Checks `Authorization: SSWS <api token>` or `Authorization: Bearer <access token>`, and that
 * a Bearer token carries one of `scopes` (an API token may do anything); returns when allowed.
 * Errors: 401 E0000011 for a missing/unknown/expired credential; 403 E0000006 with Okta's
 * `WWW-Authenticate: Bearer ... error="insufficient_scope"` header when a scope is missing
 * (OpenAPI `security: oauth2` lists the scope each operation needs).
 * @returns who calls: the admin an API token belongs to (null: the org's admin token), or the
 *   OAuth client an access token was issued to
 */
export function authenticate(
  credentials: CredentialStore,
  headers: IncomingHttpHeaders,
  scopes: readonly string[],
  context: { baseUrl: string; path: string },
): RequestCaller['who'] {
  const [scheme, token] = (headers.authorization ?? '').split(/\s+/, 2);
  if (!token) throw invalidToken();
  const kind = scheme.toLowerCase();
  if (kind === 'ssws') {
    const owner = credentials.apiTokenOwner(token);
    if (owner === undefined) throw invalidToken();
    return { kind: 'user', userId: owner };
  }
  if (kind !== 'bearer') throw invalidToken();
  const principal = credentials.principalFor(token);
  if (!principal) throw invalidToken();
  if (!scopes.some((scope) => principal.scopes.has(scope))) {
    throw accessDenied({
      'WWW-Authenticate':
        `Bearer authorization_uri="${context.baseUrl}/oauth2/v1/authorize", realm="${context.baseUrl}", ` +
        `scope="${scopes[0]}", error="insufficient_scope", ` +
        `error_description="The access token provided does not contain the required scopes.", resource="${context.path}"`,
    });
  }
  return { kind: 'client', clientId: principal.clientId };
}
