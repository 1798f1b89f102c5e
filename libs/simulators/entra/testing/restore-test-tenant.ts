import { afterAll, beforeAll } from '@jest/globals';
import {
  startEntraSimulator,
  type EntraSimulatorOptions,
  type RunningEntraSimulator,
} from '@libs/simulators/entra/index.js';
import { graphCall, graphClient, type GraphAnswer } from '@libs/simulators/entra/testing/graph-client.js';
import { pairedRecord } from '@libs/providers/testing/paired-record.js';
import type {
  ProviderRestorer,
  RestoreWriteOptions,
  RestoreWriteResult,
} from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { collectRecords } from '@libs/providers/testing/collect-parts.js';
import { EntraConnector } from '@libs/providers/entra/entra-connector.js';
import {
  ENTRA_RESOURCE_TYPES,
  type EntraResourceType,
} from '@libs/providers/entra/entra-resource-catalog.js';
import { entraRestorePermissions } from '@libs/providers/entra/restore/entra-restore-permissions.js';
import { AUDIT_LOG_PERMISSION } from '@libs/providers/entra/entra-audit-log.js';

/**
 * A simulated tenant for specs of Entra restore definitions: a connector whose app holds every
 * permission a restore needs, calls to break the tenant as its admins would (another app,
 * granted what each call needs), and reads of the live records as a backup holds them.
 */
export interface RestoreTestTenant {
  sim: RunningEntraSimulator;
  connector: EntraConnector;
  /** the client id (appId) of the app registration the connector calls with */
  clientId: string;
  restorer(options?: Partial<RestoreWriteOptions>): ProviderRestorer;
  /** A restorer prepared for `types` (their deleted items and the own service principal read). */
  prepared(
    types: readonly EntraResourceType[],
    options?: Partial<RestoreWriteOptions>,
  ): Promise<ProviderRestorer>;
  /** Every live record of the type, as a backup would hold it. */
  records(type: EntraResourceType): Promise<ResourceRecord[]>;
  /** The live record of the type with this record id, or undefined. */
  record(type: EntraResourceType, id: string): Promise<ResourceRecord | undefined>;
  /** `method /v1.0<path>` as an admin's tool granted `roles`. */
  call(
    roles: readonly string[],
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<GraphAnswer>;
  /**
   * `method <path>` (`/v1.0/...`) as an admin's tool granted every restore permission,
   * sending again what the simulator's faults answer 503.
   * @returns the answer's body; throws unless the status is 2xx
   */
  adminCall(method: string, path: string, body?: unknown): Promise<GraphAnswer['body']>;
  /**
   * Writes `backedUp` back as the restore engine would: paired with a live record by id, then by
   * natural key (pairedRecord); updated when their fingerprints differ, created when unpaired,
   * nothing when equal. @returns the write's result, or null when none was needed
   */
  restore(sut: ProviderRestorer, backedUp: ResourceRecord): Promise<RestoreWriteResult | null>;
  close(): Promise<void>;
}

/** @param options the simulator's (seed file, generator sizes) */
export async function startRestoreTestTenant(options: EntraSimulatorOptions): Promise<RestoreTestTenant> {
  const sim = await startEntraSimulator(options);
  const app = sim.registerApp([...entraRestorePermissions(ENTRA_RESOURCE_TYPES), AUDIT_LOG_PERMISSION]);
  const admin = await graphClient(sim, app);
  const connector = new EntraConnector({
    graphUrl: sim.baseUrl,
    tenantId: sim.tenantId,
    ...app,
    allowedHosts: ['127.0.0.1'],
    caCertPem: sim.caCertPem,
  });
  const records = async (type: EntraResourceType) =>
    (await collectRecords(connector, { types: [type] })).get(type) ?? [];
  const restorer = (options: Partial<RestoreWriteOptions> = {}) =>
    connector.restorer({ activateUsers: false, ...options });
  return {
    sim,
    connector,
    clientId: app.clientId,
    restorer,
    async prepared(types, options) {
      const sut = restorer(options);
      await sut.prepare(types);
      return sut;
    },
    records,
    record: async (type, id) => (await records(type)).find((record) => record.id === id),
    call: (roles, method, path, body) => graphCall(sim, roles, method, path, body),
    async adminCall(method, path, body) {
      let answer = await admin.call(method, path, body);
      while (answer.status === 503) answer = await admin.call(method, path, body);
      if (answer.status >= 300)
        throw new Error(`${method} ${path} answered ${answer.status}: ${JSON.stringify(answer.body)}`);
      return answer.body;
    },
    async restore(sut, backedUp) {
      await sut.prepare([backedUp.type]);
      const live = await records(backedUp.type as EntraResourceType);
      const found = pairedRecord(live, sut, backedUp);
      if (found && sut.fingerprint(found) === sut.fingerprint(backedUp)) return null;
      return sut.apply(
        found
          ? { action: 'update', record: backedUp, live: sut.live(found) }
          : { action: 'create', record: backedUp, with: [] },
      );
    },
    async close() {
      await connector.close();
      await admin.close();
      await sim.close();
    },
  };
}

/** Starts a test tenant before the spec's tests and closes it after them. */
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
