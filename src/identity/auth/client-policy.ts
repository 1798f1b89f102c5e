import { type ClientMetadata, errors } from 'oidc-provider';

/** Integration clients (client_credentials) have ids `ic_` + 22 characters, issued by TeamsService. */
export function isIntegrationClientId(clientId: string): boolean {
  return clientId.startsWith('ic_');
}

/** Grants a client acting for a signed-in person may use. */
const USER_GRANTS = new Set(['authorization_code', 'refresh_token']);

/** Redirect hosts allowed over plain http: the client's own machine (RFC 8252 §7.3, OAuth 2.1 §2.3.1). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The authorization server's rules on client metadata, applied whenever oidc-provider builds a
 * client (integration, registered through RFC 7591, or read from a Client ID Metadata Document):
 * - only integration clients use `client_credentials`, and only that grant: they act for the
 *   team member who created them, never for someone who signs in;
 * - every other client uses `authorization_code` (and `refresh_token`), for a signed-in person;
 * - redirect URIs are https, or http on a loopback host (native apps, CLIs, MCP clients).
 * @throws errors.InvalidClientMetadata (RFC 7591 §3.2.2 `invalid_client_metadata`; for an
 *   unknown client_id URL oidc-provider answers `invalid_client`).
 */
export function assertClientPolicy(
  metadata: Pick<ClientMetadata, 'client_id' | 'grant_types' | 'redirect_uris'>,
): void {
  const grants = stringList(metadata.grant_types, 'grant_types') ?? ['authorization_code'];
  if (isIntegrationClientId(metadata.client_id)) {
    if (grants.some((grant) => grant !== 'client_credentials')) {
      throw new errors.InvalidClientMetadata('integration clients use client_credentials only');
    }
    return;
  }
  const refused = grants.find((grant) => !USER_GRANTS.has(grant));
  if (refused)
    throw new errors.InvalidClientMetadata(
      `grant_types may hold authorization_code and refresh_token only, not ${refused}`,
    );
  for (const uri of stringList(metadata.redirect_uris, 'redirect_uris') ?? []) {
    const parsed = URL.parse(uri);
    if (parsed && parsed.protocol === 'http:' && !LOOPBACK_HOSTS.has(parsed.hostname)) {
      throw new errors.InvalidClientMetadata('redirect_uris must use https, except on a loopback host');
    }
  }
}

/**
 * A list of the metadata, checked: this policy runs before oidc-provider checks the types of
 * client metadata, and a string `grant_types` made it throw a TypeError, a 500 (docs/security.md "Request
 * validation").
 * @throws errors.InvalidClientMetadata when present but not an array of strings.
 */
function stringList(value: unknown, name: string): string[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value) && value.every((item) => typeof item === 'string')) return value;
  throw new errors.InvalidClientMetadata(`${name} must be an array of strings`);
}
