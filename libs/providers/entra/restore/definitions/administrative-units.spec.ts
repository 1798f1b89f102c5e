import { describe, expect, it } from '@jest/globals';
import type { ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { pairedRecord } from '@libs/providers/testing/paired-record.js';
import type { EntraResourceType } from '@libs/providers/entra/entra-resource-catalog.js';
import {
  type RestoreTestTenant,
  useRestoreTestTenant,
} from '@libs/simulators/entra/testing/restore-test-tenant.js';

const UNITS = '/v1.0/directory/administrativeUnits';

/** Restore writes of administrative units, their members and scoped role members against the simulator. */
describe('administrative unit restore definitions (Graph simulator over HTTPS)', () => {
  let tenant: RestoreTestTenant;
  useRestoreTestTenant({ users: 10, groups: 3, seed: 31 }, (started) => {
    tenant = started;
  });

  const paired = async (sut: ProviderRestorer, backup: ResourceRecord) =>
    pairedRecord(await tenant.records(backup.type as EntraResourceType), sut, backup);

  it('adds a unit member back, and removes one (prune)', async () => {
    const [member] = await tenant.records('administrative_unit_member');
    const [unitId, memberId] = member.id.split(':');
    await tenant.adminCall('DELETE', `${UNITS}/${unitId}/members/${memberId}/$ref`);
    const sut = await tenant.prepared(['administrative_unit_member']);

    expect(await sut.apply({ action: 'create', record: member, with: [] })).toMatchObject({ id: member.id });
    expect(sut.fingerprint((await paired(sut, member))!)).toBe(sut.fingerprint(member));

    await sut.apply({ action: 'delete', type: 'administrative_unit_member', live: sut.live(member) });
    expect(await paired(sut, member)).toBeUndefined();
  });

  it('adds a scoped role member back by role and member', async () => {
    const [membership] = await tenant.records('scoped_role_membership');
    const [unitId, membershipId] = membership.id.split(':');
    await tenant.adminCall('DELETE', `${UNITS}/${unitId}/scopedRoleMembers/${membershipId}`);
    const sut = await tenant.prepared(['scoped_role_membership']);
    expect(sut.support('scoped_role_membership').update).toBe(false);

    const result = await sut.apply({ action: 'create', record: membership, with: [] });

    const live = (await paired(sut, membership))!;
    expect(live.id).toBe(result.id);
    expect(sut.fingerprint(live)).toBe(sut.fingerprint(membership));
  });

  it('brings a deleted unit back from the deleted items, and re-creates a purged one', async () => {
    const [unit] = await tenant.records('administrative_unit');
    await tenant.adminCall('DELETE', `${UNITS}/${unit.id}`);
    let sut = await tenant.prepared(['administrative_unit']);

    expect(await sut.apply({ action: 'create', record: unit, with: [] })).toMatchObject({ id: unit.id });
    expect(sut.fingerprint((await paired(sut, unit))!)).toBe(sut.fingerprint(unit));

    await tenant.adminCall('DELETE', `${UNITS}/${unit.id}`);
    await tenant.adminCall('DELETE', `/v1.0/directory/deletedItems/${unit.id}`);
    sut = await tenant.prepared(['administrative_unit']);
    const result = await sut.apply({ action: 'create', record: unit, with: [] });

    expect(result.id).not.toBe(unit.id);
    const live = (await paired(sut, unit))!;
    expect(live.id).toBe(result.id);
    expect(sut.fingerprint(live)).toBe(sut.fingerprint(unit));
  });
});
