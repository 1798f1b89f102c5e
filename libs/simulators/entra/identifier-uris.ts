import { createHash, randomUUID } from 'node:crypto';

import { badRequest } from './graph-error.js';
import type { GraphObject, TenantState } from './tenant-state.js';

/** An identifier URI restriction of the tenant's default app management policy ("identifierUriRestriction"). */
type Restriction = Record<string, unknown> | null | undefined;

/**
 * Whether `restriction` applies to `app`: enabled, for apps created after its date (none: all),
 * and not waived for an app that receives v2 tokens (`api.requestedAccessTokenVersion` 2) or a
 * SAML app when it excludes them.
 */
function applies(restriction: Restriction, app: GraphObject): boolean {
  if (!restriction || restriction.state !== 'enabled') return false;
  const after = restriction.restrictForAppsCreatedAfterDateTime;
  if (typeof after === 'string' && Date.parse(String(app.createdDateTime)) <= Date.parse(after)) return false;
  const api = (app.api ?? {}) as Record<string, unknown>;
  if (restriction.excludeAppsReceivingV2Tokens === true && api.requestedAccessTokenVersion === 2)
    return false;
  return true;
}

/**
 * Checks the identifier URIs `app` would gain (`added`), as Graph does on "Create application"
 * and "Update application":
 * - an identifier URI is unique in the tenant ("application": `identifierUris` "must be unique";
 *   Graph answers "Another object with the same value for property identifierUris already exists.");
 * - the default app management policy's `applicationRestrictions.identifierUris`
 *   (learn.microsoft.com/graph/api/resources/identifieruriconfiguration,
 *   /identifierurirestriction; Microsoft Entra "Restrict app identifier URIs"):
 *   `nonDefaultUriAddition` lets only the default URIs `api://{appId}` and
 *   `api://{tenantId}/{appId}` be added; `uriAdditionWithoutUniqueTenantIdentifier` refuses a URI
 *   naming neither the app's id, the tenant's id nor one of its verified domains.
 * @throws GraphError 400 naming the URI and the rule
 */
export function assertIdentifierUrisAllowed(
  state: TenantState,
  app: GraphObject,
  added: readonly string[],
): void {
  for (const uri of added) {
    const holder = [...state.collection('applications').values()].find(
      (other) =>
        other.id !== app.id &&
        ((other.identifierUris ?? []) as string[]).some((held) => held.toLowerCase() === uri.toLowerCase()),
    );
    if (holder)
      throw badRequest('Another object with the same value for property identifierUris already exists.');
  }
  const [policy] = state.collection('defaultAppManagementPolicy').values();
  const restrictions = ((policy?.applicationRestrictions ?? {}) as Record<string, unknown>).identifierUris as
    Record<string, Restriction> | null | undefined;
  if (!policy || policy.isEnabled === false || !restrictions) return;
  const appId = String(app.appId).toLowerCase();
  const defaults = [`api://${appId}`, `api://${state.tenantId.toLowerCase()}/${appId}`];
  for (const uri of added) {
    const lower = uri.toLowerCase();
    if (applies(restrictions.nonDefaultUriAddition, app) && !defaults.includes(lower))
      throw badRequest(
        `The identifier URI '${uri}' is refused by the tenant's app management policy (nonDefaultUriAddition): only api://{appId} can be added.`,
      );
    const unique = [appId, state.tenantId.toLowerCase(), ...state.domainNames()].some((name) =>
      lower.includes(name),
    );
    if (applies(restrictions.uriAdditionWithoutUniqueTenantIdentifier, app) && !unique)
      throw badRequest(
        `The identifier URI '${uri}' is refused by the tenant's app management policy (uriAdditionWithoutUniqueTenantIdentifier): it must name the app id, the tenant id or a verified domain.`,
      );
  }
}

/**
 * "servicePrincipal: addTokenSigningCertificate": a self-signed certificate for SAML token
 * signing, valid until `endDateTime` (three years by default), added to the service principal's
 * `keyCredentials` (its key not listed again: Graph answers it once); the answer is the
 * `selfSignedCertificate` with the public certificate (`key`) and its `thumbprint`.
 */
export function addTokenSigningCertificate(
  state: TenantState,
  sp: GraphObject,
  body: Record<string, unknown>,
): Record<string, unknown> {
  const start = new Date();
  const end =
    typeof body.endDateTime === 'string'
      ? body.endDateTime
      : new Date(start.getTime() + 3 * 365 * 86_400_000).toISOString();
  const keyId = randomUUID();
  const key = Buffer.from(`self-signed SAML certificate ${keyId}`).toString('base64');
  // A certificate's thumbprint is the SHA-1 of its DER bytes, in upper-case hex.
  const thumbprint = createHash('sha1').update(Buffer.from(key, 'base64')).digest('hex').toUpperCase();
  const certificate = {
    customKeyIdentifier: thumbprint,
    displayName: typeof body.displayName === 'string' ? body.displayName : `CN=${String(sp.displayName)}`,
    endDateTime: end,
    keyId,
    startDateTime: start.toISOString(),
    type: 'AsymmetricX509Cert',
    usage: 'Verify',
  };
  state.update('servicePrincipals', sp.id, {
    keyCredentials: [...((sp.keyCredentials ?? []) as unknown[]), { ...certificate, key: null }],
    // Graph lists every property; the new certificate signs once this names it.
    preferredTokenSigningKeyThumbprint: sp.preferredTokenSigningKeyThumbprint ?? null,
  });
  return {
    ...certificate,
    key,
    thumbprint,
  };
}
