import type { Schemas } from '../api/client';

export type Change = Schemas['DiffChange'];
export type Severity = Change['severity'];
export type PatchOperation = Schemas['JsonPatchOperation'];

/** Severities from worst to mildest (docs/severity.md). */
export const SEVERITIES: readonly Severity[] = ['critical', 'high', 'medium', 'low', 'info'];

/** What the compare screen narrows to; an empty set means every value. */
export interface ChangeFilter {
  severities: ReadonlySet<Severity>;
  types: ReadonlySet<string>;
}

/** The changes that pass `filter`, in their order. */
export function filterChanges(changes: readonly Change[], filter: ChangeFilter): Change[] {
  return changes.filter(
    (change) =>
      (filter.severities.size === 0 || filter.severities.has(change.severity)) &&
      (filter.types.size === 0 || filter.types.has(change.resourceType)),
  );
}

/** The changes of one resource type, worst first, with how many of each severity. */
export interface ChangeGroup {
  type: string;
  changes: Change[];
  bySeverity: Record<Severity, number>;
  worst: Severity;
}

const rank = (severity: Severity) => SEVERITIES.indexOf(severity);
/** Locale-aware and numeric ("object 9" before "object 10"); a Collator compares far faster than localeCompare. */
const collator = new Intl.Collator(undefined, { numeric: true });

/**
 * Groups changes by resource type. Groups are ordered by their worst severity, then by type name;
 * within a group, changes by severity, then by name or id. Runs in O(n log n) for 10,000 changes.
 */
export function groupByType(changes: readonly Change[]): ChangeGroup[] {
  const groups = new Map<string, ChangeGroup>();
  for (const change of changes) {
    let group = groups.get(change.resourceType);
    if (!group) {
      group = {
        type: change.resourceType,
        changes: [],
        bySeverity: { critical: 0, high: 0, medium: 0, low: 0, info: 0 },
        worst: 'info',
      };
      groups.set(change.resourceType, group);
    }
    group.changes.push(change);
    group.bySeverity[change.severity] += 1;
    if (rank(change.severity) < rank(group.worst)) group.worst = change.severity;
  }
  const label = (change: Change) => change.resource.name ?? change.resource.id;
  for (const group of groups.values()) {
    group.changes.sort((a, b) => rank(a.severity) - rank(b.severity) || collator.compare(label(a), label(b)));
  }
  return [...groups.values()].sort(
    (a, b) => rank(a.worst) - rank(b.worst) || collator.compare(a.type, b.type),
  );
}

/** One line of the compare screen's virtualized list: a type's heading or one change. */
export type ChangeRow = { kind: 'group'; group: ChangeGroup } | { kind: 'change'; change: Change };

/** The groups flattened into list rows: each heading followed by its changes. */
export function toRows(groups: readonly ChangeGroup[]): ChangeRow[] {
  const rows: ChangeRow[] = [];
  for (const group of groups) {
    rows.push({ kind: 'group', group });
    for (const change of group.changes) rows.push({ kind: 'change', change });
  }
  return rows;
}

/**
 * A JSON Pointer (RFC 6901) as a dotted field name: `/profile/first~1name` -> `profile.first/name`;
 * the root pointer is "(whole object)".
 */
export function fieldName(pointer: string): string {
  if (pointer === '') return '(whole object)';
  return pointer
    .slice(1)
    .split('/')
    .map((token) => token.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
}

/** A JSON value shortened for one line: strings as they are, anything else as JSON, cut at `max` characters. */
export function shortValue(value: unknown, max = 120): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  if (text === undefined) return '—';
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** One changed field of a record: its value before (absent for an added field) and after (absent when removed). */
export interface FieldChange {
  field: string;
  /** the field's JSON Pointer (RFC 6901) in the record, as the diff's patch names it */
  path: string;
  before?: unknown;
  after?: unknown;
  kind: 'added' | 'changed' | 'removed';
}

/**
 * The field-level before and after of a `modified` change's JSON Patch (RFC 6902). The diff puts a
 * `test` operation holding the old value before each `replace` and `remove` (docs/diff.md), so
 * a `test` is read as the before of the operation that follows it on the same path.
 */
export function fieldChanges(operations: readonly PatchOperation[]): FieldChange[] {
  const fields: FieldChange[] = [];
  let pending: PatchOperation | null = null;
  for (const operation of operations) {
    if (operation.op === 'test') {
      pending = operation;
      continue;
    }
    const before = pending && pending.path === operation.path ? { before: pending.value } : {};
    pending = null;
    const field = fieldName(operation.path);
    const { path } = operation;
    if (operation.op === 'remove') fields.push({ field, path, ...before, kind: 'removed' });
    else if (operation.op === 'replace')
      fields.push({ field, path, ...before, after: operation.value, kind: 'changed' });
    else if (operation.op === 'add') fields.push({ field, path, after: operation.value, kind: 'added' });
    else
      fields.push({
        field: fieldName(operation.from ?? operation.path),
        path,
        after: operation.value,
        kind: 'changed',
      });
  }
  return fields;
}

/** A field change on one line: `profile.name: Sales → Finance`, `owner: (none) → ann`, `phone: 555 → (removed)`. */
export function describeFieldChange(change: FieldChange): string {
  const before = change.kind === 'added' ? '(none)' : 'before' in change ? shortValue(change.before) : '…';
  const after = change.kind === 'removed' ? '(removed)' : shortValue(change.after);
  return `${change.field}: ${before} → ${after}`;
}
