import type { GraphObject, TenantState } from './tenant-state.js';

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
 * The id Graph gives a user's licence ("licenseDetails"): made from the SKU and the user, so a
 * licence assigned again reads under the same id.
 */
export function licenseDetailsId(userId: string, skuId: string): string {
  return Buffer.from(`${skuId}${userId}`.replace(/-/g, ''), 'hex').toString('base64url');
}

/** A user's licence as "List licenseDetails" answers it: its SKU's plans, those disabled `Disabled`. */
export function licenseDetails(
  state: TenantState,
  userId: string,
  skuId: string,
  disabled: readonly string[],
): GraphObject {
  const sku = state.collection('subscribedSkus').get(skuId);
  const plans = (sku?.servicePlans ?? []) as Array<Record<string, unknown>>;
  return {
    id: licenseDetailsId(userId, skuId),
    skuId,
    skuPartNumber: sku?.skuPartNumber ?? null,
    servicePlans: plans.map((plan) => ({
      servicePlanId: plan.servicePlanId,
      servicePlanName: plan.servicePlanName,
      provisioningStatus: disabled.includes(String(plan.servicePlanId)) ? 'Disabled' : 'Success',
      appliesTo: plan.appliesTo ?? 'User',
    })),
  };
}
