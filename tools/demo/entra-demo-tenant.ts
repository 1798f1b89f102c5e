import { startEntraSimulator } from '@libs/simulators/entra/index.js';
import { selfSignedCertificate } from '@libs/simulators/kit/tls/certificates.js';
import { requireProvider } from '@libs/providers/registry.js';
import type { DemoTenant } from './demo-tenant.js';
import { entraRestoreDrill } from './entra-restore-drill.js';

/** How the Entra tenant is made: generated sizes, and optionally the real tenant of a ScubaGear export. */
export interface EntraDemoOptions {
  users: number;
  groups: number;
  seed: number;
  /** a ScubaGear ProviderSettingsExport.json (../shared/fixtures/entra/scubagear) */
  fixtures?: string;
}

/**
 * The Graph simulator over HTTPS with an app registration granted every application permission a
 * backup and a restore need, proven by a certificate (Microsoft's recommendation for app-only
 * access: the connection holds the certificate and its key, and signs a client assertion per
 * token), and the Entra restore drill (entra-restore-drill.ts).
 */
export async function startEntraDemoTenant(options: EntraDemoOptions): Promise<DemoTenant> {
  const entra = requireProvider('entra_id');
  const tenant = await startEntraSimulator({
    users: options.users,
    groups: options.groups,
    seed: options.seed,
    scubaGearFile: options.fixtures,
  });
  return {
    label: 'Entra simulator',
    seededFrom: options.fixtures ? ` seeded from ${options.fixtures}` : '',
    baseUrl: tenant.baseUrl,
    caCertPath: tenant.caCertPath,
    orgName: options.fixtures ? 'Real Entra tenant (ScubaGear export)' : 'Generated Entra tenant',
    async connectionBody() {
      const certificate = await selfSignedCertificate('idp-backup demo');
      const app = tenant.registerApp(entra.grants(entra.resourceTypes), certificate.certificatePem);
      return {
        provider: 'entra_id',
        org_url: tenant.baseUrl,
        tenant_id: tenant.tenantId,
        client_id: app.clientId,
        client_certificate: `${certificate.certificatePem}${certificate.privateKeyPem}`,
      };
    },
    snapshot: () => tenant.snapshot(),
    drill: (api, backupId, say) => entraRestoreDrill(tenant, api, backupId, say),
    close: () => tenant.close(),
  };
}
