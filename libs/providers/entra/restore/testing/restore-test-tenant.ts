import { afterAll, beforeAll } from '@jest/globals';
import {
  startEntraSimulator,
  type EntraSimulatorOptions,
  type RunningEntraSimulator,
} from '@libs/entra-simulator/index.js';
import {
  graphClient,
  type GraphAnswer,
  type GraphTestClient,
} from '@libs/entra-simulator/testing/graph-client.js';
import type { ProviderRestorer, RestoreWriteOptions } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/providers/resource-types.js';
import { collectRecords } from '@libs/providers/testing/collect-parts.js';
import { EntraConnector } from '@libs/providers/entra/entra-connector.js';
import {
  ENTRA_RESOURCE_TYPES,
  type EntraResourceType,
} from '@libs/providers/entra/entra-resource-catalog.js';
import { entraRestorePermissions } from '@libs/providers/entra/restore/entra-restore-permissions.js';

/**
 * A simulated tenant for specs of Entra restore definitions: a connector whose app holds every
 * restore permission, an admin Graph client to break the tenant the way an admin would, and
 * reads of the live records as a backup holds them.
 */
export interface RestoreTestTenant {
  sim: RunningEntraSimulator;
  admin: GraphTestClient;
  connector: EntraConnector;
  /** the client id (appId) of the app registration the connector calls with */
  clientId: string;
  /** A restorer, prepared for `types` (its deleted items and own service principal read). */
  restorer(
    types: readonly EntraResourceType[],
    options?: Partial<RestoreWriteOptions>,
  ): Promise<ProviderRestorer>;
  /** Every live record of the type, as a backup would hold it. */
  records(type: EntraResourceType): Promise<ResourceRecord[]>;
  /**
   * Calls Graph as the tenant's admin (`/v1.0/...`), sending again what the simulator's faults
   * answer 503; throws unless the status is 2xx.
   */
  call(method: string, path: string, body?: unknown): Promise<GraphAnswer['body']>;
  close(): Promise<void>;
}

/** @param options the simulator's (generator size and seed) */
export async function startRestoreTestTenant(options: EntraSimulatorOptions): Promise<RestoreTestTenant> {
  const sim = await startEntraSimulator(options);
  const permissions = entraRestorePermissions(ENTRA_RESOURCE_TYPES);
  const app = sim.registerApp(permissions);
  const admin = await graphClient(sim, permissions);
  const connector = new EntraConnector({
    graphUrl: sim.baseUrl,
    tenantId: sim.tenantId,
    ...app,
    allowedHosts: ['127.0.0.1'],
    caCertPem: sim.caCertPem,
  });
  return {
    sim,
    admin,
    connector,
    clientId: app.clientId,
    async restorer(types, overrides = {}) {
      const restorer = connector.restorer({ activateUsers: false, ...overrides });
      await restorer.prepare(types);
      return restorer;
    },
    records: async (type) => (await collectRecords(connector, { types: [type] })).get(type) ?? [],
    async call(method, path, body) {
      let answer = await admin.call(method, path, body);
      // With `faults`, the simulator answers some requests 503 without carrying them out.
      while (answer.status === 503) answer = await admin.call(method, path, body);
      if (answer.status >= 300)
        throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
    async close() {
      await connector.close();
      await admin.close();
      await sim.close();
    },
  };
}

/**
 * For a spec's `describe`: starts a RestoreTestTenant before its tests (handing it to `started`)
 * and closes it after them.
 */
export function useRestoreTestTenant(
  options: EntraSimulatorOptions,
  started: (tenant: RestoreTestTenant) => void,
): void {
  let tenant: RestoreTestTenant | undefined;
  beforeAll(async () => {
    tenant = await startRestoreTestTenant(options);
    started(tenant);
  });
  afterAll(async () => {
    await tenant?.close();
  });
}
