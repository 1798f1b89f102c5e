import { idParts, omit, pick } from '@libs/providers/kit/type-restore-definition.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { EntraResourceType } from '@libs/providers/entra/entra-resource-catalog.js';
import type { GraphObject } from '@libs/providers/entra/graph-api-client.js';
import { withoutAnnotations } from '@libs/providers/entra/restore/conditional-access-shape.js';
import type {
  EntraRestoreDefinition,
  EntraWriteContext,
} from '@libs/providers/entra/restore/entra-restore-definition.js';

/**
 * "Update organization": the properties it lists as writable. The rest (name, addresses,
 * verified domains, plans) come from the subscription and the admin center.
 */
const ORGANIZATION_WRITABLE = [
  'marketingNotificationEmails',
  'onPremisesSyncEnabled',
  'privacyProfile',
  'securityComplianceNotificationMails',
  'securityComplianceNotificationPhones',
  'technicalNotificationMails',
];

/**
 * Branding members Graph sets or writes as streams ("organizationalBranding resource type": the
 * `*RelativeUrl` and `cdnList` are read-only; images and CSS are Stream properties written by
 * PUT of each, which a backup's JSON does not hold).
 */
const BRANDING_READ_ONLY = [
  'id',
  'cdnList',
  'backgroundImageRelativeUrl',
  'bannerLogoRelativeUrl',
  'customCSSRelativeUrl',
  'faviconRelativeUrl',
  'headerLogoRelativeUrl',
  'squareLogoRelativeUrl',
  'squareLogoDarkRelativeUrl',
];

const brandingPath = '/v1.0/organization/{id}/branding';

/**
 * The default branding brought to the record by "Update organizationalBranding" (PATCH of its
 * String members), which also makes it when the organization has none.
 */
async function writeBranding(record: ResourceRecord, context: EntraWriteContext): Promise<string> {
  const [organizationId] = idParts(record.id);
  await context.graph.write({
    method: 'PATCH',
    template: brandingPath,
    params: { id: organizationId },
    body: brandingWritable(record.data),
    signal: context.signal,
  });
  return `${organizationId}:0`;
}

function brandingWritable(data: GraphObject): GraphObject {
  return omit(withoutAnnotations(data) as GraphObject, BRANDING_READ_ONLY);
}

const BRANDING_IMAGES =
  'Images and CSS (background, logos, favicon, custom CSS) are not restored: Graph writes them as files, which a backup does not hold; upload them again in the Entra admin center';

/**
 * The tenant: its organization (the properties "Update organization" writes), its default
 * branding ("Update organizationalBranding", "Delete organizationalBranding") and its domains,
 * which a restore does not write.
 */
export function tenantDefinitions(): Partial<Record<EntraResourceType, EntraRestoreDefinition>> {
  return {
    organization: {
      writable: (data) => pick(data, ORGANIZATION_WRITABLE),
      // a tenant has one organization, its id the tenant's: another tenant's is matched with it
      naturalKey: () => 'the tenant',
      async update(record, live, context) {
        await context.graph.write({
          method: 'PATCH',
          template: '/v1.0/organization/{id}',
          params: { id: live.id },
          body: pick(record.data, ORGANIZATION_WRITABLE),
          signal: context.signal,
        });
        return [];
      },
      notes: [
        'Only its notification e-mails and phones, privacy profile and directory sync switch are written: its name, addresses and verified domains come from the subscription and the Entra admin center',
      ],
    },
    organizational_branding: {
      writable: brandingWritable,
      async create(record, context) {
        return { id: await writeBranding(record, context), notes: [BRANDING_IMAGES] };
      },
      async update(record, _live, context) {
        await writeBranding(record, context);
        return [];
      },
      async remove(live, context) {
        await context.graph.write({
          method: 'DELETE',
          template: brandingPath,
          params: { id: idParts(live.id)[0] },
          okOn: [404],
          signal: context.signal,
        });
      },
      notes: [BRANDING_IMAGES],
    },
    domain: {
      notes: ['A domain is verified through DNS; add it again in the Entra admin center'],
    },
  };
}
