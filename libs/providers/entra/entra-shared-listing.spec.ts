import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startEntraSimulator, type RunningEntraSimulator } from '@libs/simulators/entra/index.js';
import { collectRecords } from '@libs/providers/testing/collect-parts.js';

import { EntraConnector } from './entra-connector.js';
import { entraBackupPermissions } from './entra-resource-catalog.js';

/** The user types a full backup lists `/users` for (the extension values need their names first). */
const USER_TYPES = ['user', 'user_manager', 'user_license'];

describe('EntraConnector listing /users once for users, managers and licences', () => {
  let sim: RunningEntraSimulator;
  let connector: EntraConnector;
  const userListings = () => sim.requestCounts()['GET /v1.0/users'] ?? 0;

  beforeAll(async () => {
    sim = await startEntraSimulator({ users: 250, groups: 3, seed: 5 });
    connector = new EntraConnector({
      graphUrl: sim.baseUrl,
      tenantId: sim.tenantId,
      ...sim.registerApp(entraBackupPermissions()),
      allowedHosts: ['127.0.0.1'],
      caCertPem: sim.caCertPem,
    });
  });
  afterAll(async () => {
    await connector?.close();
    await sim?.close();
  });

  it('yields the records each type read on its own yields, from one listing', async () => {
    let before = userListings();
    const alone = new Map<string, unknown>();
    for (const type of USER_TYPES)
      alone.set(type, (await collectRecords(connector, { types: [type] })).get(type));
    const separately = userListings() - before;

    before = userListings();
    const together = await collectRecords(connector, { types: USER_TYPES });
    const shared = userListings() - before;

    for (const type of USER_TYPES) expect([type, together.get(type)]).toEqual([type, alone.get(type)]);
    expect(together.get('user_manager')!.some((record) => record.data.manager !== null)).toBe(true);
    // 250 users: 1 page of the users (999 a page), 3 of their managers (an expanded list holds at
    // most 100 a page), 1 of their licences; together the expanded listing's 3 pages.
    expect({ separately, shared }).toEqual({ separately: 5, shared: 3 });
  });

  it('lists /users twice in a full backup: users with managers and licences, then extension values', async () => {
    const before = userListings();
    const parts = await collectRecords(connector, {});
    expect(parts.get('user_extension_values')!.length).toBeGreaterThan(0);
    expect(userListings() - before).toBe(3 + 1);
  });
});
