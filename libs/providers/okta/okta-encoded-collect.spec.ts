import { describe, expect, it } from '@jest/globals';

import { OKTA_VOLATILE_FIELDS } from '@libs/providers/okta/okta-volatile-fields.js';
import { contentHash } from '@libs/snapshot/content-hash.js';
import { isEncodedRecords } from '@libs/snapshot/encoded-records.js';

import type { CollectOptions, PartDelta } from '@libs/providers/provider-connector.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { collectParts } from '@libs/providers/testing/collect-parts.js';
import { type RestoreTestOrg, useRestoreTestOrg } from '@libs/simulators/okta/testing/restore-test-org.js';

interface EncodedPart {
  delta?: PartDelta;
  records: ResourceRecord[];
  /** Records that came encoded (on the worker thread). */
  encoded: number;
}

describe('OktaConnector collecting for a snapshot (encodeWithout)', () => {
  let org: RestoreTestOrg;
  useRestoreTestOrg({ users: 300, groups: 8, apps: 4, seed: 17 }, (started) => (org = started));

  /** Every part, encoded batches read back into records, with each hash checked. */
  async function collectEncoded(options: CollectOptions): Promise<Map<string, EncodedPart>> {
    const parts = new Map<string, EncodedPart>();
    const text = new TextDecoder();
    for await (const part of org.connector.collect({ ...options, encodeWithout: OKTA_VOLATILE_FIELDS })) {
      const collected: EncodedPart = { delta: part.delta, records: [], encoded: 0 };
      for await (const item of part.records) {
        if (!isEncodedRecords(item)) {
          collected.records.push(item);
          continue;
        }
        item.ids.forEach((id, index) => {
          const start = index === 0 ? 0 : item.ends[index - 1];
          const record = JSON.parse(
            text.decode(item.lines.subarray(start, item.ends[index])),
          ) as ResourceRecord;
          expect([record.id, item.hashes[index]]).toEqual([
            id,
            contentHash(record.data, OKTA_VOLATILE_FIELDS),
          ]);
          collected.records.push(record);
        });
        collected.encoded += item.ids.length;
      }
      parts.set(part.type, collected);
    }
    return parts;
  }

  it('yields the records a plain collection yields, users, app assignments and memberships encoded', async () => {
    const plain = await collectParts(org.connector, {});
    const encoded = await collectEncoded({});

    expect([...encoded.keys()]).toEqual([...plain.keys()]);
    for (const [type, part] of plain) {
      expect([type, encoded.get(type)?.records]).toEqual([type, part.records]);
    }
    expect(encoded.get('app_user_assignment')?.encoded).toBe(
      plain.get('app_user_assignment')?.records.length,
    );
    expect(encoded.get('group_membership')?.encoded).toBe(plain.get('group_membership')?.records.length);
    expect(encoded.get('app_user_assignment')?.encoded).toBeGreaterThan(0);
    expect(encoded.get('user')?.encoded).toBe(plain.get('user')?.records.length);
    expect(plain.get('user')?.records.some((user) => user.data.status === 'DEPROVISIONED')).toBe(true);
    expect(encoded.get('policy')?.encoded).toBe(0);
  });

  it('encodes the members of changed groups of an incremental collection', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const [group] = org.sim.snapshot().group.filter((each) => each.data.type === 'OKTA_GROUP');
    const user = org.sim.snapshot().user.find((each) => each.data.status === 'ACTIVE');
    await org.call('PUT', `/api/v1/groups/${group.id}/users/${user?.id}`);

    const cursors = { group: since, group_membership: since };
    const plain = await collectParts(org.connector, { cursors, types: ['group', 'group_membership'] });
    const encoded = await collectEncoded({ cursors, types: ['group', 'group_membership'] });

    const members = encoded.get('group_membership');
    expect(members?.delta).toEqual(plain.get('group_membership')?.delta);
    expect(members?.delta).toMatchObject({
      kind: 'children_of',
      parentIds: expect.arrayContaining([group.id]),
    });
    expect(members?.records).toEqual(plain.get('group_membership')?.records);
    expect(members?.records.map((record) => record.id)).toContain(`${group.id}:${user?.id}`);
    expect(members?.encoded).toBe(members?.records.length);
  });

  it('encodes the changed users of an incremental collection', async () => {
    const since = new Date(Date.now() - 1000).toISOString();
    const user = org.sim.snapshot().user.find((each) => each.data.status === 'ACTIVE');
    await org.call('POST', `/api/v1/users/${user?.id}`, { profile: { title: 'Encoded elsewhere' } });

    const plain = await collectParts(org.connector, { cursors: { user: since }, types: ['user'] });
    const encoded = await collectEncoded({ cursors: { user: since }, types: ['user'] });

    const users = encoded.get('user');
    expect(users?.delta).toEqual({ kind: 'changed' });
    expect(users?.records).toEqual(plain.get('user')?.records);
    expect(users?.records.map((record) => record.id)).toContain(user?.id);
    expect(users?.encoded).toBe(users?.records.length);
  });

  it('yields a user deprovisioned between the two user queries once', async () => {
    const ids: string[] = [];
    let deprovisioned: string | undefined;

    for await (const part of org.connector.collect({
      types: ['user'],
      encodeWithout: OKTA_VOLATILE_FIELDS,
    })) {
      for await (const item of part.records) {
        ids.push(...(isEncodedRecords(item) ? item.ids : [item.id]));
        if (deprovisioned !== undefined) continue;
        // Listed by the first query; the DEPROVISIONED search, which comes after it, lists them too.
        deprovisioned = ids[0];
        await org.call('POST', `/api/v1/users/${deprovisioned}/lifecycle/deactivate`);
      }
    }

    expect(ids.filter((id) => id === deprovisioned)).toHaveLength(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.length).toBe(org.sim.snapshot().user.length);
  });
});
