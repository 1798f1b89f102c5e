import { replaced, type Entry } from '@libs/simulators/okta/store/entry.js';

/** The priority of the catch-all rule Okta keeps last in app sign-in policies and the like. */
export const CATCH_ALL_PRIORITY = 99;

/**
 * How Okta orders the members of one priority group (the policies of one type, the rules of one
 * policy):
 * - `positions`: priorities are places 1..n with the default (`system`) member last. A member
 *   given priority p moves to place p, the others close up behind it; p past the end is the last
 *   place before the default (recorded: a password rule created with `priority: 999` answered 1;
 *   a password policy created at 1 moved the default policy from 1 to 2).
 * - `catch-all`: the system member keeps priority 99 and the others may leave gaps (recorded
 *   app sign-in rules at 0, 10 and 98). A member given a priority that another holds pushes that
 *   one down by one, which may push the next, and so on.
 * - `none`: priorities are not an order (recorded: every app sign-in policy of an org at 1).
 */
export type PriorityOrder = 'positions' | 'catch-all' | 'none';

/** Policy types Okta assigns to apps rather than evaluating in priority order. */
const APP_ASSIGNED_POLICY_TYPES = ['ACCESS_POLICY', 'PROFILE_ENROLLMENT'];

/** Policy types whose rules end with a system catch-all rule at 99 (recorded rule lists). */
const CATCH_ALL_POLICY_TYPES = [
  'ACCESS_POLICY',
  'PROFILE_ENROLLMENT',
  'POST_AUTH_SESSION',
  'SESSION_VIOLATION_DETECTION',
  'MFA_ENROLL',
];

/** How the policies of one type are ordered. */
export function policyOrder(policyType: string): PriorityOrder {
  return APP_ASSIGNED_POLICY_TYPES.includes(policyType) ? 'none' : 'positions';
}

/** How the rules of a policy of this type are ordered. */
export function ruleOrder(policyType: string): PriorityOrder {
  return CATCH_ALL_POLICY_TYPES.includes(policyType) ? 'catch-all' : 'positions';
}

/** One priority group as the arrangement reads and writes it. */
export interface PriorityGroup {
  members: ReadonlyArray<[string, Entry]>;
  /** Stores a member whose priority changed. */
  set(key: string, entry: Entry): void;
  /** `lastUpdated` of the members that move (Okta stamps them). */
  now: string;
}

const priorityOf = (entry: Entry): number =>
  typeof entry.data.priority === 'number' ? entry.data.priority : Number.MAX_SAFE_INTEGER;

function move(group: PriorityGroup, key: string, entry: Entry, priority: number): void {
  if (entry.data.priority === priority) return;
  group.set(key, replaced(entry, { ...entry.data, priority, lastUpdated: group.now }));
}

/**
 * Puts `moved` (just created or replaced, holding the priority it asked for) in its place and
 * moves the other members as Okta does (see PriorityOrder). Without `moved` (after a deletion),
 * a `positions` group closes the gap.
 */
export function arrangePriorities(group: PriorityGroup, order: PriorityOrder, moved?: string): void {
  if (order === 'none') return;
  const system = group.members.filter(([, entry]) => entry.data.system === true);
  const others = group.members.filter(([, entry]) => entry.data.system !== true);
  if (order === 'catch-all') {
    for (const [key, entry] of system) move(group, key, entry, CATCH_ALL_PRIORITY);
    const priorities = new Map(others.map(([key, entry]) => [key, priorityOf(entry)]));
    let holder = moved !== undefined && priorities.has(moved) ? moved : undefined;
    while (holder !== undefined) {
      const taken = priorities.get(holder);
      const pushed = [...priorities].find(([key, priority]) => key !== holder && priority === taken)?.[0];
      if (pushed !== undefined) priorities.set(pushed, Number(taken) + 1);
      holder = pushed;
    }
    for (const [key, entry] of others) move(group, key, entry, Number(priorities.get(key)));
    return;
  }
  const movedMember = others.find(([key]) => key === moved);
  const places = others
    .filter((member) => member !== movedMember)
    .sort((a, b) => priorityOf(a[1]) - priorityOf(b[1]));
  if (movedMember) {
    const place = Math.min(Math.max(priorityOf(movedMember[1]), 1), places.length + 1);
    places.splice(place - 1, 0, movedMember);
  }
  // Defaults keep their order among themselves (a merged recorded org may hold several).
  const defaults = [...system].sort((a, b) => priorityOf(a[1]) - priorityOf(b[1]));
  [...places, ...defaults].forEach(([key, entry], index) => move(group, key, entry, index + 1));
}
