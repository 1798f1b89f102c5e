import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { EntraWriteContext } from '@libs/providers/entra/restore/entra-restore-definition.js';

/** How long a new SAML token-signing certificate lives: three years, the Entra admin center's default. */
const CERTIFICATE_LIFETIME_MS = 3 * 365 * 86_400_000;

/** The runbook's line for SAML apps (the type's notes). */
export const SAML_RUNBOOK =
  "A re-created SAML app signs with a new token-signing certificate (Graph never returns a certificate's private key): the restore item gives its thumbprint; upload the certificate to the service provider's SAML settings, from Entra admin center > Enterprise applications > the app > Single sign-on > SAML Certificates (Certificate (Base64)), or point the provider at https://login.microsoftonline.com/{tenantId}/federationmetadata/2007-06/federationmetadata.xml?appid={appId}";

/**
 * Gives a re-created SAML service principal a token-signing certificate
 * ("servicePrincipal: addTokenSigningCertificate", Application.ReadWrite.All: a self-signed
 * certificate, its public part answered with its `thumbprint`) and makes it the one that signs
 * (`preferredTokenSigningKeyThumbprint`, "Update servicePrincipal").
 * @returns the item's notes: the thumbprint, its end, and where the service provider needs it
 * @throws ProviderRequestError when Graph refuses either write
 */
export async function newSigningCertificate(
  servicePrincipalId: string,
  record: ResourceRecord,
  context: EntraWriteContext,
): Promise<string[]> {
  const name = String(record.data.displayName ?? record.data.appId);
  const certificate = await context.graph.write({
    method: 'POST',
    template: '/v1.0/servicePrincipals/{id}/addTokenSigningCertificate',
    params: { id: servicePrincipalId },
    body: {
      displayName: `CN=${name}`,
      endDateTime: new Date(Date.now() + CERTIFICATE_LIFETIME_MS).toISOString(),
    },
    retryNotFound: true,
    signal: context.signal,
  });
  const thumbprint = String(certificate?.thumbprint ?? '');
  await context.graph.write({
    method: 'PATCH',
    template: '/v1.0/servicePrincipals/{id}',
    params: { id: servicePrincipalId },
    body: { preferredTokenSigningKeyThumbprint: thumbprint },
    signal: context.signal,
  });
  return [
    `New SAML token-signing certificate ${thumbprint} (until ${String(certificate?.endDateTime)}): upload it to ${name}'s SAML settings (Entra admin center > Enterprise applications > ${name} > Single sign-on > SAML Certificates)`,
  ];
}
