import { describe, expect, it } from '@jest/globals';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { pairedRecord } from '@libs/providers/testing/paired-record.js';
import {
  type RestoreTestTenant,
  useRestoreTestTenant,
} from '@libs/simulators/entra/testing/restore-test-tenant.js';

/** Values of a record's directory extension attributes (`extension_<appId>_<name>`). */
const extensionNames = (record: ResourceRecord) =>
  Object.keys(record.data).filter((name) => name.startsWith('extension_'));

/**
 * Users' directory extension values (Graph "Add custom data to resources using extensions"):
 * collected with a `$select` of the tenant's User extensions, restored with a PATCH of the user.
 */
describe('user_extension_values (Graph simulator over HTTPS)', () => {
  let tenant: RestoreTestTenant;
  useRestoreTestTenant({ users: 6, groups: 2, seed: 43 }, (started) => {
    tenant = started;
  });

  it('reads a record per user with only the extension values it has', async () => {
    const [definition] = await tenant.records('extension_property');
    const records = await tenant.records('user_extension_values');
    const users = await tenant.records('user');
    expect(records.map(({ id }) => id).sort()).toEqual(users.map(({ id }) => id).sort());
    const withValues = records.filter((record) => extensionNames(record).length > 0);
    expect(withValues).toHaveLength(2);
    for (const record of withValues) {
      expect(extensionNames(record)).toEqual([definition.data.name]);
      expect(record.data[String(definition.data.name)]).toMatch(/^CC-\d+$/);
    }
  });

  it('puts back a cleared value and a changed one, and clears a value the backup did not have', async () => {
    const records = await tenant.records('user_extension_values');
    const [cleared, changed] = records.filter((record) => extensionNames(record).length > 0);
    const bare = records.find((record) => extensionNames(record).length === 0)!;
    const [name] = extensionNames(cleared);
    await tenant.adminCall('PATCH', `/v1.0/users/${cleared.id}`, { [name]: null });
    await tenant.adminCall('PATCH', `/v1.0/users/${changed.id}`, { [name]: 'CC-changed' });
    await tenant.adminCall('PATCH', `/v1.0/users/${bare.id}`, { [name]: 'CC-added' });
    const sut = await tenant.prepared(['user_extension_values']);
    const live = async (backup: ResourceRecord) =>
      (await pairedRecord(await tenant.records('user_extension_values'), sut, backup))!;

    for (const backup of [cleared, changed, bare]) {
      expect(sut.fingerprint(await live(backup))).not.toBe(sut.fingerprint(backup));
      await sut.apply({ action: 'update', record: backup, live: sut.live(await live(backup)) });
      expect((await live(backup)).data).toEqual(backup.data);
    }
  });

  it('leaves out a value of a name the tenant does not have, and says so', async () => {
    const [record] = await tenant.records('user_extension_values');
    const sut = await tenant.prepared(['user_extension_values']);
    const unknown = {
      ...record,
      data: { id: record.id, extension_0123456789abcdef0123456789abcdef_gone: 'x' },
    };
    expect(await sut.apply({ action: 'update', record: unknown, live: sut.live(record) })).toMatchObject({
      notes: [expect.stringMatching(/^extension_0123456789abcdef0123456789abcdef_gone was not restored/)],
    });
    // The user's values are the backup's: the ones the tenant has (none), the others cleared.
    const after = (await tenant.records('user_extension_values')).find(({ id }) => id === record.id);
    expect(after?.data).toEqual({ id: record.id });
  });
});
