import { describe, expect, it } from '@jest/globals';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { EntraResourceType } from '@libs/providers/entra/entra-resource-catalog.js';
import {
  type RestoreTestTenant,
  useRestoreTestTenant,
} from '@libs/simulators/entra/testing/restore-test-tenant.js';

/** Per type, the path that deletes one of its records' objects. */
const DELETE_PATHS: ReadonlyArray<[EntraResourceType, (record: ResourceRecord) => string]> = [
  [
    'federated_identity_credential',
    (r) => `/v1.0/applications/${r.id.replace(':', '/federatedIdentityCredentials/')}`,
  ],
  ['extension_property', (r) => `/v1.0/applications/${r.id.replace(':', '/extensionProperties/')}`],
  ['app_role_assignment', (r) => `/v1.0/servicePrincipals/${r.id.replace(':', '/appRoleAssignedTo/')}`],
  ['oauth2_permission_grant', (r) => `/v1.0/oauth2PermissionGrants/${r.id}`],
  ['role_assignment', (r) => `/v1.0/roleManagement/directory/roleAssignments/${r.id}`],
  [
    'scoped_role_membership',
    (r) => `/v1.0/directory/administrativeUnits/${r.id.replace(':', '/scopedRoleMembers/')}`,
  ],
];

/**
 * Creations whose answers are lost (the simulator's faults answer a share of Graph requests 503
 * without carrying them out) are looked for by natural key before they are made again, so each
 * object exists once afterwards.
 */
describe('application, unit and role creations when Graph answers 503 (simulator faults)', () => {
  let tenant: RestoreTestTenant;
  useRestoreTestTenant({ users: 10, groups: 3, seed: 31, faults: { errorRate: 0.3, seed: 7 } }, (started) => {
    tenant = started;
  });

  const posts = () =>
    Object.entries(tenant.sim.requestCounts())
      .filter(([endpoint]) => endpoint.startsWith('POST /v1.0/'))
      .reduce((sum, [, count]) => sum + count, 0);

  it('creates each deleted object once, looking for it after a lost answer', async () => {
    const backedUp = new Map<EntraResourceType, ResourceRecord[]>();
    for (const [type, pathOf] of DELETE_PATHS) {
      backedUp.set(type, await tenant.records(type));
      for (const record of backedUp.get(type)!) await tenant.adminCall('DELETE', pathOf(record));
    }
    const sut = await tenant.prepared(DELETE_PATHS.map(([type]) => type));
    const before = posts();

    for (const records of backedUp.values())
      for (const record of records) await sut.apply({ action: 'create', record, with: [] });

    const created = [...backedUp.values()].flat().length;
    // Some creations were answered 503 and made again.
    expect(posts() - before).toBeGreaterThan(created);
    for (const [type, records] of backedUp) {
      const live = (await tenant.records(type)).map((record) => sut.naturalKey(record));
      expect({ type, keys: live.sort() }).toEqual({
        type,
        keys: records.map((r) => sut.naturalKey(r)).sort(),
      });
    }
  });

  it('re-creates a purged application once, answering its new appId', async () => {
    const app = (await tenant.records('application')).find((record) => record.name === 'HR portal')!;
    await tenant.adminCall('DELETE', `/v1.0/applications/${app.id}`);
    await tenant.adminCall('DELETE', `/v1.0/directory/deletedItems/${app.id}`);
    const sut = await tenant.prepared(['application']);

    const result = await sut.apply({ action: 'create', record: app, with: [] });

    const live = (await tenant.records('application')).filter((record) => record.name === 'HR portal');
    expect(live.map((record) => record.id)).toEqual([result.id]);
    expect(result.renamed).toEqual({ [String(app.data.appId)]: live[0].data.appId });
  });
});
