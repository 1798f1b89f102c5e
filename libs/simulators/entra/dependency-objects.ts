import type { TenantState } from './tenant-state.js';

/** What Graph answers for a write-only secret ("socialIdentityProvider": clientSecret "returns ****"). */
export const MASKED_SECRET = '****';

/** The v1.0 members of an internalDomainFederation Graph answers when a create leaves them out. */
export const FEDERATION_DEFAULTS: Readonly<Record<string, unknown>> = {
  displayName: null,
  issuerUri: null,
  metadataExchangeUri: null,
  passiveSignInUri: null,
  preferredAuthenticationProtocol: 'wsFed',
  signingCertificate: null,
  activeSignInUri: null,
  federatedIdpMfaBehavior: 'acceptIfMfaDoneByFederatedIdp',
  isSignedAuthenticationRequestRequired: false,
  nextSigningCertificate: null,
  passwordResetUri: null,
  promptLoginBehavior: 'nativeSupport',
  signingCertificateUpdateStatus: null,
  signOutUri: null,
};

/**
 * A user's manager as `$expand=manager($select=id)` answers it on "List users": the directory
 * object with its `@odata.type` and id, or null when the user has none.
 */
export function managerOf(state: TenantState, userId: string): Record<string, unknown> | null {
  const [link] = state.childrenOf('manager', userId);
  const type = link && state.directoryObjectType(link.id);
  return type ? { '@odata.type': type, id: link.id } : null;
}
