import { describe, expect, it } from '@jest/globals';
import type { IndexEntry } from '@libs/snapshot/index-line.js';
import { recreatedPairs, rewriteIds } from './recreation.js';

const entry = (id: string) => ({ id }) as unknown as IndexEntry;
const OLD_GROUP = '00g1oldgroup00000001';
const NEW_GROUP = '00g1newgroup00000002';
const POLICY_OLD = '5f1c2b1e-8a3d-4e2f-9b7c-1d2e3f4a5b6c';
const POLICY_NEW = '9a0b1c2d-3e4f-4a5b-8c6d-7e8f9a0b1c2d';

describe('re-created objects in a diff', () => {
  const ids = new Map([
    [OLD_GROUP, NEW_GROUP],
    [POLICY_OLD, POLICY_NEW],
  ]);
  const recreation = { ids, serverOwned: new Set(['id']) };

  it('pairs a removed record with the added one the id map names, and its children part by part', () => {
    const pairs = recreatedPairs(
      'group_membership',
      {
        removed: [entry(`${OLD_GROUP}:00u1`), entry('00g1gone:00u2')],
        added: [entry(`${NEW_GROUP}:00u1`), entry('00g1other:00u3')],
        modified: [],
      },
      recreation,
    );
    expect([...pairs]).toEqual([[`${NEW_GROUP}:00u1`, `${OLD_GROUP}:00u1`]]);
  });

  it('pairs nothing without both sides', () => {
    const located = { removed: [entry(OLD_GROUP)], added: [], modified: [] };
    expect(recreatedPairs('group', located, recreation).size).toBe(0);
  });

  it('rewrites whole-token ids anywhere in the data, never its own id and never inside a longer token', () => {
    const data = {
      conditions: { users: { includeGroups: [OLD_GROUP] } },
      url: `https://acme.example/policies/${POLICY_OLD}?x=1`,
      self: `https://acme.example/groups/${OLD_GROUP}`,
      longer: `x${OLD_GROUP}`,
    };
    expect(rewriteIds(data, ids, OLD_GROUP)).toEqual({
      conditions: { users: { includeGroups: [OLD_GROUP] } },
      url: `https://acme.example/policies/${POLICY_NEW}?x=1`,
      self: `https://acme.example/groups/${OLD_GROUP}`,
      longer: `x${OLD_GROUP}`,
    });
    expect(rewriteIds(data, ids).conditions).toEqual({ users: { includeGroups: [NEW_GROUP] } });
    const untouched = { name: 'nothing mapped here' };
    expect(rewriteIds(untouched, ids)).toBe(untouched);
  });
});
