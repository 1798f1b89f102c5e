import { describe, expect, it } from '@jest/globals';

import { foldDeltaEntry, type RoundFold } from './entra-delta.js';

/** A round's entries folded, as EntraDeltaReader folds its pages. */
function fold(entries: Array<Record<string, unknown>>): RoundFold {
  const round: RoundFold = { state: new Map(), links: new Map() };
  for (const entry of entries) foldDeltaEntry(entry, round);
  return round;
}

describe('foldDeltaEntry', () => {
  it('keeps the last mention of an object Graph returned more than once in a round', () => {
    const { state } = fold([
      { id: 'a', displayName: 'A' },
      { id: 'b', '@removed': { reason: 'changed' } },
      { id: 'a', '@removed': { reason: 'deleted' } },
      { id: 'b', displayName: 'B' },
    ]);
    expect([...state]).toEqual([
      ['a', 'removed'],
      ['b', 'changed'],
    ]);
  });

  it('records members@delta without marking the group changed, unless its properties are there too', () => {
    const { state, links } = fold([
      { id: 'g1', 'members@delta': [{ '@odata.type': '#microsoft.graph.user', id: 'u1' }] },
      { id: 'g2', displayName: 'Two', 'members@delta': [] },
      {
        id: 'g1',
        'members@delta': [
          { '@odata.type': '#microsoft.graph.user', id: 'u1', '@removed': { reason: 'deleted' } },
        ],
      },
      { id: 'g2', 'members@delta': [{ '@odata.type': '#microsoft.graph.group', id: 'g1' }] },
    ]);
    expect([...state]).toEqual([
      ['g1', 'links'],
      ['g2', 'changed'],
    ]);
    expect([...(links.get('members') ?? [])]).toEqual([
      ['g1:u1', { parentId: 'g1', id: 'u1', type: 'user', removed: true }],
      ['g2:g1', { parentId: 'g2', id: 'g1', type: 'group', removed: false }],
    ]);
  });
});
