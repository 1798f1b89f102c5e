import type { SimulatorOptions } from '@libs/simulators/okta/index.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import { parseFlopack } from '@libs/providers/okta-workflows/flopack.js';
import { WorkflowsConnector } from '@libs/providers/okta-workflows/workflows-connector.js';
import { WORKFLOWS_PROVIDER } from '@libs/providers/okta-workflows/workflows-provider.js';
import { WORKFLOWS_SCOPES } from '@libs/providers/okta-workflows/workflows-scopes.js';
import { recordsOfFlopack, tableRowsOf } from '@libs/providers/okta-workflows/workflow-records.js';
import { exportFolder, tableCsv } from '@libs/simulators/workflows/index.js';
import type { HeldRecord, ProviderHarness, SimulatedTenant } from '@test/support/provider-conformance.js';
import { startWorkflowsOrg, type TestWorkflowsOrg } from '@test/support/workflows-org.js';

/** An Okta org of the simulator with its Workflows host, and the admin client of the org. */
interface WorkflowsTenant extends SimulatedTenant {
  org: TestWorkflowsOrg;
  okta: SimulatorClient;
}

const TENANTS: Record<
  'plain' | 'faulty' | 'rate_limited',
  Pick<SimulatorOptions, 'faults' | 'rateLimits'>
> = {
  plain: {},
  // A collection is a handful of requests (token, invocation, a System Log page or two): rates
  // high enough that some of them fail.
  faulty: { faults: { errorRate: 0.2, dropRate: 0.1, truncateRate: 0.1, seed: 5 } },
  rate_limited: { rateLimits: 'enterprise' },
};

/** Okta's Enterprise limit of `GET /api/v1/logs` (System Log), requests a minute (rate-limit-buckets.ts). */
const SYSTEM_LOG_PER_MINUTE = 50;

/**
 * The tenant's folder as its exporter flow answers now, read into records the provider's way
 * (recordsOfFlopack, held to the console's export format by workflows-parts.spec.ts), each flow
 * on or off as the console shows it.
 */
function holdingsOf(org: TestWorkflowsOrg): Record<string, HeldRecord[]> {
  const { data } = org.workflows;
  const tables = [...data.tables.values()].map((table) => ({ id: table.id, csv: tableCsv(table) }));
  const records = recordsOfFlopack(parseFlopack(exportFolder(data, Date.now())), tableRowsOf(tables));
  for (const flow of records.workflow) flow.data.active = data.flows.get(flow.id)!.active;
  return records;
}

async function startWorkflowsTenant(kind: keyof typeof TENANTS): Promise<WorkflowsTenant> {
  const org = await startWorkflowsOrg(
    { flows: 8, tables: 2, rows: 4, seed: 17 },
    WORKFLOWS_SCOPES,
    TENANTS[kind],
  );
  const okta = new SimulatorClient(org.sim);
  if (kind === 'rate_limited')
    // Spend the System Log's minute, as the org's own admins (or its SIEM) might: the backup,
    // which reads whether each flow is on from the log, meets a 429 and waits for the reset.
    for (let spent = 0; spent < SYSTEM_LOG_PER_MINUTE; spent++)
      await okta.call('GET', '/api/v1/logs?limit=1');
  // A key pair the app does not hold: its assertion does not verify.
  const stranger = org.newApp([]);
  return {
    org,
    okta,
    connect: (held = 'granted') =>
      new WorkflowsConnector({
        orgUrl: org.sim.baseUrl,
        clientId: org.app.clientId,
        privateKey: held === 'wrong' ? stranger.privateKeyPem : org.app.privateKeyPem,
        flowAlias: org.workflows.exporterAlias,
        allowedHosts: ['127.0.0.1'],
        caCertPem: org.sim.caCertPem,
        notCaptured: WORKFLOWS_PROVIDER.notCaptured,
      }),
    holdings: () => holdingsOf(org),
    answered: () => org.sim.requestLog(),
    close: async () => {
      await okta.agent.close();
      await org.sim.close();
    },
  };
}

/**
 * Okta Workflows' conformance harness: simulated orgs with their Workflows folder. Workflows has
 * no management API (docs/okta-workflows.md): the exporter flow answers the whole folder at
 * once, so nothing pages and nothing is collected incrementally.
 */
export const harness: ProviderHarness<WorkflowsTenant> = {
  kind: 'okta_workflows',
  tenant: startWorkflowsTenant,
  paging: {
    notApplicable: 'the exporter flow answers the whole folder in one invocation',
    endpoint: 'POST /api/flo/{alias}/invoke',
  },
  incremental: {
    notApplicable: 'an export holds every object; the System Log only says whether to export again',
  },
  // WorkflowsConnector's maxConcurrency.
  maxConcurrency: 2,
  // Workflows mints card and input ids anew on every export (workflow-records.ts EXPORTED).
  volatileFields: WORKFLOWS_PROVIDER.volatileFields,
};
