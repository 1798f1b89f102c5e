import {
  startEntraSimulator,
  type EntraSimulatorOptions,
  type RunningEntraSimulator,
} from '@libs/simulators/entra/index.js';
import {
  DIRECTORY_WRITER_ROLES,
  graphClient,
  type GraphTestClient,
} from '@libs/simulators/entra/testing/graph-client.js';
import { changeTenantAsAdmins } from '@libs/simulators/entra/testing/tenant-changes.js';
import { EntraConnector } from '@libs/providers/entra/entra-connector.js';
import { entraBackupPermissions } from '@libs/providers/entra/entra-resource-catalog.js';
import { AUDIT_LOG_PERMISSION } from '@libs/providers/entra/entra-audit-log.js';
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

/** Clients of the app spending its budget at once, each sending its next request on the last's answer. */
const SPENDERS = 16;

/**
 * Spends the application+tenant resource-unit budget as the app's other tools might, with the
 * app's own credentials and its dearest reads: SPENDERS requests always in flight, until Graph answers 429; then on,
 * until `othersRefused` (a backup met a 429 too), or `stop` is called.
 *
 * Graph's budget is a token bucket that refills continuously ("Microsoft Graph service-specific
 * throttling limits", learn.microsoft.com/graph/throttling-limits, "Identity and access service
 * limits": "Throttling is based on a token bucket algorithm"; 3,500 RU per 10 s for a tenant under
 * 50 users, so 350 RU a second come back). Unlike Okta's per-minute window, a budget spent and then
 * left alone is whole again within 10 s, and one spent in rounds has units back between them: it
 * is empty for a backup only while requests keep arriving to take every unit as it returns.
 * @returns the 429s the spending met (not the backup's), and how to stop it
 * @throws Error when 8,000 requests never met a 429
 */
async function spendBudget(
  sim: RunningEntraSimulator,
  app: { clientId: string; clientSecret: string },
  othersRefused: () => boolean,
): Promise<{ spent429: () => number; stop: () => Promise<void> }> {
  const spender = await graphClient(sim, app);
  // The dearest read the simulator serves: a group's members (3 RU) with `$expand` (+1), so the
  // bucket empties in half the requests `/users` (2 RU) would take, even on a starved CPU.
  const [group] = (await spender.call('GET', '/v1.0/groups?$top=1')).body.value;
  const dearRead = `/v1.0/groups/${String(group.id)}/members?$expand=memberOf`;
  let refused = 0;
  let sent = 0;
  let stopped = false;
  let spent!: () => void;
  const firstRefusal = new Promise<void>((resolve) => (spent = resolve));
  const spend = async () => {
    while (!stopped && !(refused > 0 && othersRefused())) {
      if (++sent > 8_000) throw new Error('the resource-unit budget was never spent');
      const { status } = await spender.call('GET', dearRead);
      if (status === 429 && ++refused === 1) spent();
    }
  };
  const spending = Promise.all(Array.from({ length: SPENDERS }, spend)).finally(() => spender.close());
  // Marked handled here; `stop` awaits it and rethrows.
  spending.catch(() => undefined);
  await Promise.race([firstRefusal, spending]);
  return {
    spent429: () => refused,
    stop: async () => {
      stopped = true;
      await spending;
    },
  };
}

async function startEntraTenant(kind: keyof typeof TENANTS): Promise<EntraTenant> {
  const sim = await startEntraSimulator(TENANTS[kind]);
  const app = sim.registerApp([...entraBackupPermissions(), AUDIT_LOG_PERMISSION]);
  const admin = await graphClient(sim, DIRECTORY_WRITER_ROLES);
  const connectors: EntraConnector[] = [];
  const backupRefused = () => connectors.some((connector) => connector.stats().status429 > 0);
  const spending = kind === 'rate_limited' ? await spendBudget(sim, app, backupRefused) : undefined;
  const connect = (held: 'granted' | 'wrong') => {
    const connector = new EntraConnector({
      graphUrl: sim.baseUrl,
      tenantId: sim.tenantId,
      ...app,
      ...(held === 'wrong' ? { clientSecret: 'not-the-secret' } : {}),
      allowedHosts: ['127.0.0.1'],
      caCertPem: sim.caCertPem,
    });
    connectors.push(connector);
    return connector;
  };
  return {
    sim,
    admin,
    connect: (held = 'granted') => connect(held),
    holdings: () => sim.snapshot(),
    answered: () => ({
      total: Object.values(sim.requestCounts()).reduce((sum, count) => sum + count, 0),
      status429: sim.throttleTotals().status429 - (spending?.spent429() ?? 0),
    }),
    close: async () => {
      await spending?.stop();
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
  incremental: {
    change: async ({ sim, admin }) => {
      await changeTenantAsAdmins(sim, admin);
    },
  },
};
