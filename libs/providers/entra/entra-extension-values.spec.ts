import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startEntraSimulator, type RunningEntraSimulator } from '@libs/simulators/entra/index.js';
import { collectParts } from '@libs/providers/testing/collect-parts.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';

import { EntraConnector } from './entra-connector.js';
import { entraBackupPermissions } from './entra-resource-catalog.js';

const EXTENSIONS = 'GET /v1.0/applications/{id}/extensionProperties';

/** Records as the simulator's snapshot holds them: id, name and data. */
const asSnapshot = (records: ResourceRecord[]) => records.map(({ id, name, data }) => ({ id, name, data }));

/**
 * Users' directory extension values: Graph returns them only when `$select` names them, so the
 * collector's `extension_values` hook reads them with the User extensions `extension_property`
 * read earlier in the same backup, or reads those itself when that type is not collected.
 */
describe('EntraConnector collecting user_extension_values', () => {
  let sim: RunningEntraSimulator;
  let connector: EntraConnector;

  beforeAll(async () => {
    sim = await startEntraSimulator({ users: 6, groups: 2, seed: 5 });
    const app = sim.registerApp(entraBackupPermissions());
    connector = new EntraConnector({
      graphUrl: sim.baseUrl,
      tenantId: sim.tenantId,
      ...app,
      allowedHosts: ['127.0.0.1'],
      caCertPem: sim.caCertPem,
    });
  });
  afterAll(async () => {
    await connector?.close();
    await sim?.close();
  });

  it("reads the values with the names of the backup's extension definitions, without listing them again", async () => {
    const before = sim.requestCounts()[EXTENSIONS] ?? 0;
    const parts = await collectParts(connector, { types: ['extension_property', 'user_extension_values'] });
    const applications = sim.snapshot().application.length;
    expect((sim.requestCounts()[EXTENSIONS] ?? 0) - before).toBe(applications);
    const names = parts.get('extension_property')!.records.map(({ data }) => data.name);
    const values = parts.get('user_extension_values')!.records;
    expect(values.map(({ id }) => id).sort()).toEqual(
      sim
        .snapshot()
        .user.map(({ id }) => id)
        .sort(),
    );
    const set = values.filter(({ data }) => Object.keys(data).length > 1);
    expect(set).toHaveLength(2);
    for (const { data } of set) expect(Object.keys(data).filter((key) => key !== 'id')).toEqual(names);
    expect(asSnapshot(values)).toEqual(sim.snapshot().user_extension_values);
  });

  it('reads the extension definitions itself when they are not collected', async () => {
    const parts = await collectParts(connector, { types: ['user_extension_values'] });
    expect(asSnapshot(parts.get('user_extension_values')!.records)).toEqual(
      sim.snapshot().user_extension_values,
    );
  });
});
