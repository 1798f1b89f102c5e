import { randomBytes } from 'node:crypto';

/**
 * Why an object left a collection, as a delta query's `@removed` says (Graph "delta query
 * overview", "Resource representation in the delta query response"): `changed` when it went to the
 * deleted items and can still be restored, `deleted` when it is gone for good.
 */
export type RemovedReason = 'changed' | 'deleted';

/** One change to a directory object of a collection the simulator tracks for delta queries. */
interface ObjectEvent {
  kind: 'object';
  collection: string;
  id: string;
  change: 'created' | 'updated' | 'restored' | RemovedReason;
  /** the properties an update set */
  props?: readonly string[];
}

/** A member added to or removed from a group (tracked as the group's `members` relationship). */
interface MemberEvent {
  kind: 'member';
  groupId: string;
  memberId: string;
  /** `#microsoft.graph.user` or `#microsoft.graph.group` */
  memberType: string;
  change: 'added' | 'removed';
}

/** What happened to one object between two points of the log, folded to its last state. */
export interface ObjectDelta {
  /** created (or restored) after the start: a delta answers its whole representation */
  whole: boolean;
  /** the properties updated since the start (when not whole) */
  props: Set<string>;
  removed?: RemovedReason;
}

/** Members of one group added or removed between two points of the log, by member id. */
export type MemberDelta = Map<string, { memberType: string; removed: boolean }>;

/**
 * The tenant's change history, the state behind delta tokens: every change the write routes make
 * to a tracked collection (users, groups, group members), numbered. A delta token names a point of
 * this log (Graph's tokens are opaque and hold the sync state; "delta query overview"); the
 * `generation` names the log itself, so tokens of a reset log are refused as Graph refuses a sync
 * state it no longer has. Seeding writes no history: a tenant's first token is made after it.
 */
export class ChangeLog {
  #events: Array<ObjectEvent | MemberEvent> = [];
  #generation = randomBytes(6).toString('base64url');

  /** The log's identity: a token of another generation is unknown. */
  get generation(): string {
    return this.#generation;
  }

  /** The point after the last change, what a token made now holds. */
  get position(): number {
    return this.#events.length;
  }

  /** Drops the history and starts a new generation: every token issued so far is unknown (410). */
  reset(): void {
    this.#events = [];
    this.#generation = randomBytes(6).toString('base64url');
  }

  object(collection: string, id: string, change: ObjectEvent['change'], props?: readonly string[]): void {
    this.#events.push({ kind: 'object', collection, id, change, props });
  }

  member(groupId: string, memberId: string, memberType: string, change: MemberEvent['change']): void {
    this.#events.push({ kind: 'member', groupId, memberId, memberType, change });
  }

  /** What happened to the objects of `collection` in `(from, to]`, each folded to its last state. */
  objectsBetween(collection: string, from: number, to: number): Map<string, ObjectDelta> {
    const deltas = new Map<string, ObjectDelta>();
    for (let at = from; at < to; at++) {
      const event = this.#events[at];
      if (event.kind !== 'object' || event.collection !== collection) continue;
      let delta = deltas.get(event.id);
      if (!delta) deltas.set(event.id, (delta = { whole: false, props: new Set() }));
      if (event.change === 'created' || event.change === 'restored') {
        delta.whole = true;
        delta.removed = undefined;
      } else if (event.change === 'updated') {
        for (const name of event.props ?? []) delta.props.add(name);
      } else {
        delta.removed = event.change;
      }
    }
    return deltas;
  }

  /** Members added or removed in `(from, to]`, by group, each member folded to its last state. */
  membersBetween(from: number, to: number): Map<string, MemberDelta> {
    const groups = new Map<string, MemberDelta>();
    for (let at = from; at < to; at++) {
      const event = this.#events[at];
      if (event.kind !== 'member') continue;
      let members = groups.get(event.groupId);
      if (!members) groups.set(event.groupId, (members = new Map()));
      members.set(event.memberId, { memberType: event.memberType, removed: event.change === 'removed' });
    }
    return groups;
  }
}
