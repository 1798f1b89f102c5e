import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { KeyRing } from '@libs/crypto/key-ring.js';
import { FsObjectStore } from '@libs/object-store/fs-object-store.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { providerDescriptor } from '@libs/providers/registry.js';
import { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import { SnapshotWriter } from '@libs/snapshot/snapshot-writer.js';
import { diffSnapshots } from './snapshot-diff.js';

const OKTA = providerDescriptor('okta')!;

const keyRing = new KeyRing([{ kid: 'k1', key: Buffer.alloc(32, 7) }]);
const ROLE_TYPES = ['admin_role_assignment', 'admin_role_target'];

const role = (id: string, type = 'USER_ADMIN'): ResourceRecord => ({
  type: 'admin_role_assignment',
  id,
  name: type,
  data: { id: id.split(':')[1], type, assignmentType: 'USER' },
});
const target = (assignmentId: string, groupId: string): ResourceRecord => ({
  type: 'admin_role_target',
  id: `${assignmentId}:${groupId}`,
  name: groupId,
  data: { assignmentType: 'USER', roleType: 'USER_ADMIN', groupId },
});

/** Two real snapshots (encrypted, indexed) and the severity rule of each admin role target change between them. */
describe('diff of admin role targets: rated with their assignment read from the other backup', () => {
  let dir: string;
  let store: FsObjectStore;

  const snapshot = async (name: string, roles: ResourceRecord[], targets: ResourceRecord[]) => {
    const prefix = `teams/t/users/u/connections/c/backups/${name}/`;
    const writer = await SnapshotWriter.create({
      store,
      prefix,
      keyRing,
      volatileFields: OKTA.volatileFields,
    });
    await writer.writePart('admin_role_assignment', roles);
    await writer.writePart('admin_role_target', targets);
    await writer.finish({ backupId: name });
    return SnapshotReader.open({ store, prefix, keyRing });
  };

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'scope-facts-spec-'));
    store = new FsObjectStore(dir);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('tells a role widened to the whole org from one narrowed, grown, granted or revoked', async () => {
    const [a, b, c, d] = ['00u1:ra1', '00u2:ra2', '00u3:ra3', '00u4:ra4'];
    const before = await snapshot(
      'before',
      [role(a), role(b), role(c)],
      [target(a, '00g1'), target(a, '00g2'), target(b, '00g3'), target(c, '00g4')],
    );
    const after = await snapshot(
      'after',
      [role(a), role(b), role(d)],
      [target(a, '00g1'), target(a, '00g6'), target(d, '00g5')],
    );

    const changes = await diffSnapshots(before, after, ROLE_TYPES, new Set(OKTA.volatileFields), OKTA);

    const rules = Object.fromEntries(
      changes
        .filter((c) => c.resourceType === 'admin_role_target')
        .map((c) => [c.resource.id, [c.action, c.rule]]),
    );
    expect(rules).toEqual({
      [`${a}:00g2`]: ['removed', 'admin-role-narrowed'],
      [`${b}:00g3`]: ['removed', 'admin-role-widened'],
      [`${c}:00g4`]: ['removed', 'admin-role-narrowed'],
      [`${a}:00g6`]: ['added', 'admin-role-reach-grown'],
      [`${d}:00g5`]: ['added', 'admin-role-narrowed'],
    });
    expect(changes.find((c) => c.resource.id === `${b}:00g3`)?.severity).toBe('critical');
  });
});
