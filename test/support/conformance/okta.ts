import { startSimulator, type RunningSimulator, type SimulatorOptions } from '@libs/simulators/okta/index.js';
import { changeOrgAsAdmins } from '@libs/simulators/okta/testing/org-changes.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { OktaConnector, type OktaConnectorOptions } from '@libs/providers/okta/okta-connector.js';
import { PAGE_LIMITS } from '@libs/providers/okta/okta-endpoints.js';
import { OKTA_BACKUP_SCOPES } from '@libs/providers/okta/okta-scopes.js';
import { installApiServiceIntegration } from '@tools/demo/okta-api-service.js';
import type { ProviderHarness, SimulatedTenant } from '@test/support/provider-conformance.js';

/** An Okta org of the simulator, with the admin client that changes it. */
interface OktaTenant extends SimulatedTenant {
  sim: RunningSimulator;
  okta: SimulatorClient;
}

const TENANTS: Record<'plain' | 'faulty' | 'rate_limited', SimulatorOptions> = {
  plain: { users: 450, groups: 12, apps: 5, seed: 31 },
  faulty: {
    users: 250,
    groups: 10,
    apps: 4,
    seed: 3,
    faults: { errorRate: 0.06, dropRate: 0.04, truncateRate: 0.04, seed: 5 },
  },
  rate_limited: { users: 120, groups: 8, apps: 6, seed: 11, rateLimits: 'enterprise' },
};

/** Retries sized for a simulator failing a tenth of its requests, so the suite stays short. */
const FAST_RETRIES: Partial<OktaConnectorOptions> = { retryBaseDelayMs: 5, maxAttempts: 8 };

async function startOktaTenant(kind: keyof typeof TENANTS): Promise<OktaTenant> {
  const sim = await startSimulator(TENANTS[kind]);
  const okta = new SimulatorClient(sim);
  // The install call itself may meet an injected fault: try until one lands.
  let integration;
  for (let attempt = 1; !integration; attempt++) {
    integration = await installApiServiceIntegration(sim, OKTA_BACKUP_SCOPES).catch((error: unknown) => {
      if (attempt >= 10) throw error;
    });
  }
  if (kind === 'rate_limited') {
    // Okta's Enterprise limit of the apps bucket is 100 requests a minute: spend it, as the org's
    // own admins might, so the backup meets a 429 and waits for the window's reset.
    for (let spent = 0; spent < 100; spent++) await okta.call('GET', '/api/v1/apps?limit=1');
  }
  const credentials = integration;
  return {
    sim,
    okta,
    connect: (held = 'granted') =>
      new OktaConnector({
        orgUrl: sim.baseUrl,
        ...credentials,
        ...(held === 'wrong' ? { clientSecret: 'not-the-secret' } : {}),
        allowedHosts: ['127.0.0.1'],
        caCertPem: sim.caCertPem,
        ...(kind === 'faulty' ? FAST_RETRIES : {}),
      }),
    holdings: () => sim.snapshot(),
    answered: () => sim.requestLog(),
    close: async () => {
      await okta.agent.close();
      await sim.close();
    },
  };
}

/** Okta's conformance harness: its simulator's orgs, changed as Okta admins would. */
export const harness: ProviderHarness<OktaTenant> = {
  kind: 'okta',
  tenant: startOktaTenant,
  // 450 users: more than two pages of the default list, then the DEPROVISIONED search.
  paging: { type: 'user', endpoint: 'GET /api/v1/users', pageSize: PAGE_LIMITS.users, pages: 2 },
  // OktaConnector's default maxConcurrency.
  maxConcurrency: 4,
  incremental: {
    change: async ({ sim, okta }) => {
      await changeOrgAsAdmins(sim, okta);
    },
  },
};
