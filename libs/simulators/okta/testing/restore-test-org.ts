import { afterAll, beforeAll } from '@jest/globals';
import { startSimulator, type RunningSimulator, type SimulatorOptions } from '@libs/simulators/okta/index.js';
import { SimulatorClient } from '@libs/simulators/okta/testing/simulator-client.js';
import type { ProviderRestorer, RestoreWriteOptions } from '@libs/providers/provider-restore.js';
import { OKTA_RESOURCE_TYPES, type OktaResourceType } from '@libs/providers/okta/okta-resource-types.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { collectRecords } from '@libs/providers/testing/collect-parts.js';
import { OktaConnector } from '@libs/providers/okta/okta-connector.js';
import { oktaRestoreScopes } from '@libs/providers/okta/okta-scopes.js';

/**
 * A simulated org for specs of restore definitions: a connector holding every restore scope, an
 * admin client (SSWS) to break the org the way an admin would, and reads of the live records.
 */
export interface RestoreTestOrg {
  sim: RunningSimulator;
  admin: SimulatorClient;
  connector: OktaConnector;
  /** the client id of the API service integration the connector calls with */
  clientId: string;
  restorer(options?: Partial<RestoreWriteOptions>): ProviderRestorer;
  /** Every live record of the type, as a backup would hold it. */
  records(type: OktaResourceType): Promise<ResourceRecord[]>;
  /** The live record of the type whose natural key or id matches, or undefined. */
  find(
    type: OktaResourceType,
    match: (record: ResourceRecord) => boolean,
  ): Promise<ResourceRecord | undefined>;
  /** Calls the org as its admin; throws unless the status is `expected` (default 2xx). */
  call(method: string, path: string, json?: unknown, expected?: number): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** @param options the simulator's (generator size and seed) */
export async function startRestoreTestOrg(options: SimulatorOptions): Promise<RestoreTestOrg> {
  const sim = await startSimulator(options);
  const admin = new SimulatorClient(sim);
  const call: RestoreTestOrg['call'] = async (method, path, json, expected) => {
    const response = await admin.call(method, path, json === undefined ? {} : { json });
    const ok = expected === undefined ? response.status < 300 : response.status === expected;
    if (!ok) throw new Error(`${method} ${path} answered ${response.status}: ${response.text}`);
    return (response.body ?? {}) as Record<string, unknown>;
  };
  const installed = await call('POST', '/integrations/api/v1/api-services', {
    type: 'idp_backup',
    grantedScopes: oktaRestoreScopes(OKTA_RESOURCE_TYPES),
  });
  const connector = new OktaConnector({
    orgUrl: sim.baseUrl,
    clientId: String(installed.id),
    clientSecret: String(installed.clientSecret),
    allowedHosts: ['127.0.0.1'],
    caCertPem: sim.caCertPem,
    scopes: oktaRestoreScopes(OKTA_RESOURCE_TYPES),
  });
  const records = async (type: OktaResourceType) =>
    (await collectRecords(connector, { types: [type] })).get(type) ?? [];
  return {
    sim,
    admin,
    connector,
    clientId: String(installed.id),
    restorer: (overrides = {}) => connector.restorer({ activateUsers: false, ...overrides }),
    records,
    find: async (type, match) => (await records(type)).find(match),
    call,
    async close() {
      await connector.close();
      await admin.close();
      await sim.close();
    },
  };
}

/**
 * For a spec's `describe`: starts a RestoreTestOrg before its tests (handing it to `started`,
 * which keeps it and what it needs) and closes it after them.
 */
export function useRestoreTestOrg(options: SimulatorOptions, started: (org: RestoreTestOrg) => void): void {
  let org: RestoreTestOrg | undefined;
  beforeAll(async () => {
    org = await startRestoreTestOrg(options);
    started(org);
  });
  afterAll(async () => {
    await org?.close();
  });
}
