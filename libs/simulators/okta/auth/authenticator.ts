import type { IncomingHttpHeaders } from 'node:http';

import { accessDenied, invalidToken } from '@libs/simulators/okta/http/okta-error.js';
import type { CredentialStore } from './credential-store.js';

/**
 * Checks `Authorization: SSWS <api token>` or `Authorization: Bearer <access token>`, and that
 * a Bearer token carries one of `scopes` (an API token may do anything); returns when allowed.
 * Errors: 401 E0000011 for a missing/unknown/expired credential; 403 E0000006 with Okta's
 * `WWW-Authenticate: Bearer ... error="insufficient_scope"` header when a scope is missing
 * (OpenAPI `security: oauth2` lists the scope each operation needs).
 */
export function authenticate(
  credentials: CredentialStore,
  headers: IncomingHttpHeaders,
  scopes: readonly string[],
  context: { baseUrl: string; path: string },
): void {
  const [scheme, token] = (headers.authorization ?? '').split(/\s+/, 2);
  if (!token) throw invalidToken();
  const kind = scheme.toLowerCase();
  if (kind === 'ssws') {
    if (!credentials.isAdminToken(token)) throw invalidToken();
    return;
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
}
