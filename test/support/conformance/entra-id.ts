import {
  startEntraSimulator,
  type EntraSimulatorOptions,
  type RunningEntraSimulator,
} from '@libs/entra-simulator/index.js';
import {
  DIRECTORY_WRITER_ROLES,
  graphClient,
  type GraphTestClient,
} from '@libs/entra-simulator/testing/graph-client.js';
import { changeTenantAsAdmins } from '@libs/entra-simulator/testing/tenant-changes.js';
import { EntraConnector } from '@libs/providers/entra/entra-connector.js';
import { entraBackupPermissions } from '@libs/providers/entra/entra-resource-catalog.js';
import type { ProviderHarness, SimulatedTenant } from '@test/support/provider-conformance.js';

/** A tenant of the Graph simulator, with an admin client that changes it. */
interface EntraTenant extends SimulatedTenant {
  sim: RunningEntraSimulator;
  admin: GraphTestClient;
}

/** Graph pages users 999 at a time when asked `$top=999` (entra-resource-catalog.ts). */
const USER_PAGE = 999;

const TENANTS: Record<'plain' | 'faulty' | 'rate_limited', EntraSimulatorOptions> = {
  // More users than two pages of 999 hold.
  plain: { users: 2_100, groups: 8, seed: 31 },
  faulty: { users: 300, groups: 6, seed: 3, faults: { errorRate: 0.06, seed: 5 } },
  rate_limited: { users: 30, groups: 4, seed: 11, throttling: true },
};

/**
 * Spends the application+tenant resource-unit budget (Graph "Identity and access service limits")
 * as the app's other tools might, with the app's own credentials: until Graph answers 429, then on
 * for `keepOnMs` more, so the backup starting meanwhile meets the empty budget too.
 * @returns the 429s the spending met so far (not the connector's)
 */
async function spendBudget(
  sim: RunningEntraSimulator,
  app: { clientId: string; clientSecret: string },
  keepOnMs: number,
): Promise<() => number> {
  const spender = await graphClient(sim, app);
  let refused = 0;
  const round = async () => {
    const answers = await Promise.all(Array.from({ length: 16 }, () => spender.call('GET', '/v1.0/users')));
    refused += answers.filter(({ status }) => status === 429).length;
  };
  for (let rounds = 0; refused === 0; rounds++) {
    if (rounds >= 500) throw new Error('the resource-unit budget was never spent');
    await round();
  }
  const until = Date.now() + keepOnMs;
  void (async () => {
    while (Date.now() < until) await round();
    await spender.close();
  })();
  return () => refused;
}

async function startEntraTenant(kind: keyof typeof TENANTS): Promise<EntraTenant> {
  const sim = await startEntraSimulator(TENANTS[kind]);
  const app = sim.registerApp(entraBackupPermissions());
  const admin = await graphClient(sim, DIRECTORY_WRITER_ROLES);
  const spent429 = kind === 'rate_limited' ? await spendBudget(sim, app, 1_500) : () => 0;
  return {
    sim,
    admin,
    connect: (options = {}) =>
      new EntraConnector({
        graphUrl: sim.baseUrl,
        tenantId: sim.tenantId,
        ...app,
        ...options,
        allowedHosts: ['127.0.0.1'],
        caCertPem: sim.caCertPem,
      }),
    holdings: () => sim.snapshot(),
    answered: () => ({
      total: Object.values(sim.requestCounts()).reduce((sum, count) => sum + count, 0),
      status429: sim.throttleTotals().status429 - spent429(),
    }),
    close: async () => {
      await admin.close();
      await sim.close();
    },
  };
}

/** Entra ID's conformance harness: tenants of the Graph simulator, changed as their admins would. */
export const harness: ProviderHarness<EntraTenant> = {
  kind: 'entra_id',
  tenant: startEntraTenant,
  paging: { type: 'user', endpoint: 'GET /v1.0/users', pageSize: USER_PAGE, pages: 2 },
  // EntraConnector's default maxConcurrency.
  maxConcurrency: 4,
  change: async ({ sim, admin }) => {
    await changeTenantAsAdmins(sim, admin);
  },
};
