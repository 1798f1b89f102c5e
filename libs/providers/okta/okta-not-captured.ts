import type { OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import type { OktaObject } from './okta-api-client.js';

/**
 * One thing a backup of a type does not hold.
 * - `field`: a dotted path into the object (`[]` steps into every element of an array). With
 *   `strip`, Okta may return it and the connector deletes it before the record leaves the
 *   connector (a secret a backup must not keep); without, Okta never returns a value there.
 * - `api`: a sub-resource Okta never lists (secrets, enrolments), named by its OpenAPI path.
 */
type Omission = { field: string; strip?: true } | { api: string };

/**
 * What Okta never returns, and the secrets it returns that a backup drops, per type: the one
 * table behind `OktaConnector.notCaptured` and the redaction of records. Sources: the OpenAPI
 * description (write-only properties, `credentials` objects) and Okta's API references ("the
 * password is never returned"...).
 */
const NOT_CAPTURED: Partial<Record<OktaResourceType, readonly Omission[]>> = {
  user: [
    // Users API: the password and the recovery answer are write-only.
    { field: 'credentials.password.value' },
    { field: 'credentials.password.hash' },
    { field: 'credentials.recovery_question.answer' },
    { api: '/api/v1/users/{userId}/factors' },
  ],
  app: [
    // Returned for OIDC apps created before secret rotation, write-only elsewhere.
    { field: 'credentials.oauthClient.client_secret', strip: true },
    { field: 'credentials.password.value', strip: true },
    { api: '/api/v1/apps/{appId}/credentials/keys (private keys)' },
  ],
  app_user_assignment: [{ field: 'credentials.password.value', strip: true }],
  // listOAuth2ClientSecrets answers each secret in clear (`client_secret`); `secret_hash` stays.
  app_client_secret: [{ field: 'client_secret', strip: true }],
  app_signing_key: [{ api: '/api/v1/apps/{appId}/credentials/keys (private keys)' }],
  authorization_server: [
    { api: '/api/v1/authorizationServers/{authServerId}/credentials/keys (private keys)' },
  ],
  authenticator: [
    // Duo: `secretKey` is write-only.
    { field: 'provider.configuration.secretKey', strip: true },
  ],
  identity_provider: [
    // listIdentityProviders answers OIDC and social IdPs' client secret in clear.
    { field: 'protocol.credentials.client.client_secret', strip: true },
    { api: '/api/v1/idps/credentials/keys (private keys)' },
  ],
  event_hook: [{ field: 'channel.config.authScheme.value', strip: true }],
  inline_hook: [
    { field: 'channel.config.authScheme.value', strip: true },
    { field: 'channel.config.clientSecret', strip: true },
  ],
  custom_domain: [{ api: '/api/v1/domains/{domainId}/certificate (private key)' }],
};

/** Type -> dotted paths and API paths, for the manifest (ProviderConnector.notCaptured). */
export const OKTA_NOT_CAPTURED: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  Object.entries(NOT_CAPTURED).map(([type, omissions]) => [
    type,
    omissions.map((omission) => ('field' in omission ? omission.field : omission.api)),
  ]),
);

const STRIPPED = new Map<string, string[][]>(
  Object.entries(NOT_CAPTURED).flatMap(([type, omissions]) => {
    const paths = omissions.flatMap((o) => ('field' in o && o.strip ? [o.field.split('.')] : []));
    return paths.length > 0 ? [[type, paths]] : [];
  }),
);

/**
 * The object without the secrets NOT_CAPTURED strips for `type`: a copy along the changed
 * paths only (the rest shared), or the object itself when there was nothing to strip, so
 * records of types without secrets cost nothing.
 */
export function redact(type: string, object: OktaObject): OktaObject {
  const paths = STRIPPED.get(type);
  if (!paths) return object;
  let result = object;
  for (const path of paths) result = without(result, path) as OktaObject;
  return result;
}

/** `value` minus the property at `path` (from `path[at]` on), copying only the objects along it. */
function without(value: unknown, path: readonly string[], at = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  const head = path[at];
  if (head.endsWith('[]')) {
    const key = head.slice(0, -2);
    const items = (value as Record<string, unknown>)[key];
    if (!Array.isArray(items)) return value;
    return { ...value, [key]: items.map((item) => without(item, path, at + 1)) };
  }
  if (!(head in value)) return value;
  if (at === path.length - 1) {
    const { [head]: _removed, ...kept } = value as Record<string, unknown>;
    return kept;
  }
  const child = (value as Record<string, unknown>)[head];
  const stripped = without(child, path, at + 1);
  return stripped === child ? value : { ...value, [head]: stripped };
}
