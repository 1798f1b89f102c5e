import type { Operation } from 'fast-json-patch';

/** Severity of a change (DESIGN section 4), most severe first. */
export const SEVERITIES = ['critical', 'high', 'medium', 'low', 'info'] as const;
export type Severity = (typeof SEVERITIES)[number];

export type ChangeAction = 'added' | 'modified' | 'removed';

/** What a severity rule sees of one change: the record's data before and after, and the patch. */
export interface ChangeFacts {
  resourceType: string;
  action: ChangeAction;
  /** provider JSON before the change (absent when added) */
  before?: Record<string, unknown>;
  /** provider JSON after the change (absent when removed) */
  after?: Record<string, unknown>;
  /** RFC 6902 operations from before to after, volatile fields left out (empty unless modified) */
  patch: readonly Operation[];
  /**
   * For an added or removed record that limits its parent (a provider's `scopingParents`: an
   * Okta admin role's target), the parent's side of the change, read from the other snapshot: absent when unknown.
   */
  scope?: ScopeFacts;
}

/**
 * A scoping record's parent across a change. For `removed`: the parent in the newer snapshot
 * and the records of the type still under it there; for `added`: the parent in the older
 * snapshot and the records of the type already under it there.
 */
export interface ScopeFacts {
  /** the parent is in the other snapshot (not granted or revoked along with this record) */
  parentKept: boolean;
  /** records of the type under the parent in the other snapshot */
  siblings: number;
}

/**
 * The value at a dotted path (`settings.password.complexity.minLength`) of a record's data, or
 * undefined when any step is missing.
 */
export function valueAt(data: Record<string, unknown> | undefined, path: string): unknown {
  let current: unknown = data;
  for (const step of path.split('.')) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string, unknown>)[step];
  }
  return current;
}

/** JSON Pointers (RFC 6901) the patch changes, `test` operations left out. */
export function changedPointers(facts: ChangeFacts): string[] {
  return facts.patch.filter((operation) => operation.op !== 'test').map((operation) => operation.path);
}

/** True when the value at `path` differs between before and after, compared as JSON. */
export function changedAt(facts: ChangeFacts, path: string): boolean {
  return JSON.stringify(valueAt(facts.before, path)) !== JSON.stringify(valueAt(facts.after, path));
}

/** The `type` field of the record (policy and rule types: PASSWORD, SIGN_ON, ...). */
export function recordType(facts: ChangeFacts): unknown {
  return (facts.after ?? facts.before)?.type;
}

/**
 * One named part of a resource that a change touched, for providers whose resources are made of
 * parts people know by name (a Workflows flow's cards): `key` addresses the part inside the record
 * (`root:channels:http:okta:1.0.685:deactivateUser#1`), `name` is its title (`Deactivate User`).
 */
export interface ChangePart {
  /** what the part is, e.g. `card` */
  kind: string;
  key: string;
  name: string | null;
  action: ChangeAction;
  /** the record patch's operations inside this part */
  changes: Operation[];
}
