import type { OktaObject } from '@libs/providers/okta/okta-api-client.js';
import { collectionDefinition } from '@libs/providers/okta/restore/collection-definition.js';
import { createdId, pick } from '@libs/providers/okta/restore/restore-definition.js';

/** The DNS records Okta answers a new domain with (DomainResponse `dnsRecords`), as runbook text. */
function dnsRecordsOf(answer: OktaObject): string {
  const records = Array.isArray(answer.dnsRecords) ? (answer.dnsRecords as OktaObject[]) : [];
  return records
    .map((record) => {
      const values = Array.isArray(record.values) ? record.values.join(', ') : '';
      return `${String(record.recordType)} ${String(record.fqdn)} = ${values}`;
    })
    .join('; ');
}

/**
 * Custom domains (Custom Domains API). createCustomDomain takes the name and the certificate
 * source only (DomainRequest) and gives the domain to the default brand (recorded: POST, then
 * replaceCustomDomain with `brandId`), which is the one thing replaceCustomDomain changes
 * (UpdateDomain). Okta lower-cases names and each name exists once: the natural key.
 *
 * What a restore cannot bring back: Okta proves ownership again with a new TXT verification value
 * (the domain starts NOT_STARTED and serves nothing until verified), and a MANUAL certificate's
 * private key is never returned. A re-created domain is still worth having: its brand and name
 * come back, and the runbook names the DNS records to set. The certificate source is set only at
 * creation (uploading a certificate makes it MANUAL), so it is not compared.
 */
export const customDomain = collectionDefinition(
  {
    path: '/api/v1/domains',
    params: ['domainId'],
    body: (writable) => ({ brandId: writable.brandId }),
  },
  {
    writable: (data) => pick(data, ['domain', 'brandId']),
    naturalKey: (record) =>
      typeof record.data.domain === 'string' ? record.data.domain.toLowerCase() : null,
    notes: [
      'Re-created custom domains start unverified (NOT_STARTED) and serve no sign-in until verified: set the DNS records Okta shows for the domain (its TXT verification value is new) and verify it (Admin Console or POST /api/v1/domains/{domainId}/verify)',
      'Okta-managed certificates are issued again after verification; MANUAL certificates must be uploaded again with their private key (Okta never returns it)',
    ],
    async create(record, context) {
      const answer = (await context.api.write({
        method: 'POST',
        template: '/api/v1/domains',
        body: { domain: record.data.domain, certificateSourceType: record.data.certificateSourceType },
        signal: context.signal,
      })) as OktaObject;
      const id = createdId(answer, 'a custom domain');
      if (typeof record.data.brandId === 'string' && answer.brandId !== record.data.brandId)
        await context.api.write({
          method: 'PUT',
          template: '/api/v1/domains/{domainId}',
          params: { domainId: id },
          body: { brandId: record.data.brandId },
          signal: context.signal,
        });
      const certificate =
        record.data.certificateSourceType === 'MANUAL' ? '; then upload its certificate and private key' : '';
      return {
        id,
        notes: [`Unverified until DNS is set and the domain verified: ${dnsRecordsOf(answer)}${certificate}`],
      };
    },
  },
);
