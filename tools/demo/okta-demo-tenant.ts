import { startSimulator } from '@libs/simulators/okta/index.js';
import { requireProvider } from '@libs/providers/registry.js';
import type { DemoTenant } from './demo-tenant.js';
import { installApiServiceIntegration } from './okta-api-service.js';
import { restoreDrill } from './okta-restore-drill.js';

/** How the Okta org is made: generated sizes, or recorded fixtures, and its rate limits. */
export interface OktaDemoOptions {
  users: number;
  groups: number;
  apps: number;
  seed: number;
  fixtures?: string;
  fixtureOrg?: string;
  rateLimits: 'none' | 'enterprise';
}

/**
 * The Okta simulator over HTTPS, an API service integration installed with every scope a backup
 * needs (as an admin does from the catalog), and the restore drill (restore-drill.ts).
 */
export async function startOktaDemoTenant(options: OktaDemoOptions): Promise<DemoTenant> {
  const okta = requireProvider('okta');
  const org = await startSimulator({
    users: options.users,
    groups: options.groups,
    apps: options.apps,
    seed: options.seed,
    fixturesDir: options.fixtures,
    fixtureOrg: options.fixtureOrg,
    rateLimits: options.rateLimits,
  });
  return {
    label: 'Okta simulator',
    seededFrom: options.fixtures ? ` seeded from ${options.fixtures}` : '',
    baseUrl: org.baseUrl,
    caCertPath: org.caCertPath,
    orgName: options.fixtures ? 'Recorded Okta orgs' : 'Generated Okta org',
    async connectionBody() {
      const integration = await installApiServiceIntegration(org, okta.grants(okta.resourceTypes));
      return {
        org_url: org.baseUrl,
        client_id: integration.clientId,
        client_secret: integration.clientSecret,
      };
    },
    snapshot: () => org.snapshot(),
    drill: (api, backupId, say) => restoreDrill(org, api, backupId, say),
    close: () => org.close(),
  };
}
