import { describe, expect, it } from '@jest/globals';

import type { Entry } from '@libs/simulators/okta/store/entry.js';
import { arrangePriorities, type PriorityGroup, type PriorityOrder } from './policy-priorities.js';

/** A group of members `name -> priority` (`!` marks the system member), arranged after `moved` changed. */
function arranged(members: Record<string, number>, order: PriorityOrder, moved?: string) {
  const store = new Map<string, Entry>(
    Object.entries(members).map(([name, priority]) => [
      name,
      { data: { name, priority, system: name.endsWith('!'), lastUpdated: 'before' } },
    ]),
  );
  const group: PriorityGroup = {
    members: [...store.entries()],
    set: (key, entry) => store.set(key, entry),
    now: 'now',
  };
  arrangePriorities(group, order, moved);
  return {
    priorities: Object.fromEntries([...store].map(([name, entry]) => [name, entry.data.priority])),
    touched: [...store].filter(([, entry]) => entry.data.lastUpdated === 'now').map(([name]) => name),
  };
}

describe('arrangePriorities', () => {
  it('moves a member to its place among positions and renumbers the others, the default last', () => {
    expect(arranged({ a: 1, b: 2, c: 1, 'default!': 3 }, 'positions', 'c').priorities).toEqual({
      a: 2,
      b: 3,
      c: 1,
      'default!': 4,
    });
  });

  it('puts a priority past the end in the last place before the default (999 answered 1, recorded)', () => {
    expect(arranged({ 'default!': 1, rule: 999 }, 'positions', 'rule').priorities).toEqual({
      'default!': 2,
      rule: 1,
    });
  });

  it('closes the gap a deleted member leaves, stamping only the members that move', () => {
    const { priorities, touched } = arranged({ a: 1, c: 3, 'default!': 4 }, 'positions');
    expect(priorities).toEqual({ a: 1, c: 2, 'default!': 3 });
    expect(touched.sort()).toEqual(['c', 'default!']);
  });

  it('keeps several defaults (a merged recorded org) in their order, whatever order they were stored in', () => {
    const { priorities, touched } = arranged(
      { 'late!': 6, a: 2, b: 1, 'middle!': 5, 'early!': 4, c: 3 },
      'positions',
      'a',
    );
    expect(priorities).toEqual({ 'late!': 6, a: 2, b: 1, 'middle!': 5, 'early!': 4, c: 3 });
    expect(touched).toEqual([]);
  });

  it('pushes the holder of a taken priority down one by one beside a catch-all rule, gaps kept', () => {
    expect(
      arranged({ a: 1, b: 2, c: 10, moved: 1, 'catch-all!': 99 }, 'catch-all', 'moved').priorities,
    ).toEqual({ a: 2, b: 3, c: 10, moved: 1, 'catch-all!': 99 });
  });

  it('keeps the catch-all rule at 99 whatever it was given', () => {
    expect(arranged({ a: 5, 'catch-all!': 3 }, 'catch-all', 'catch-all!').priorities).toEqual({
      a: 5,
      'catch-all!': 99,
    });
  });

  it('leaves priorities that are no order alone (app sign-in policies, all at 1)', () => {
    expect(arranged({ a: 1, b: 1, c: 1 }, 'none', 'b').touched).toEqual([]);
  });
});
