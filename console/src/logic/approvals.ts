import { approvalsMessages as text } from '../messages/approvals';

/** One RFC 6902 operation of `live.changes` (GET /api/approvals/{id}). */
export interface PreviewChange {
  op: string;
  path: string;
  value?: unknown;
}

/** The parts of a JSON Pointer (RFC 6901: `~1` is `/`, `~0` is `~`). */
function pointer(path: string): string[] {
  return path
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The differences since a request as lines a person reads: each `replace` paired with the `test`
 * before it (the earlier value), counts as "group: create 1 → 2", prune candidates and types that
 * appeared or went as "New: …" and "Gone: …".
 */
export function describeChanges(changes: readonly PreviewChange[]): string[] {
  const before = new Map<string, unknown>();
  const lines: string[] = [];
  for (const change of changes) {
    if (change.op === 'test') {
      before.set(change.path, change.value);
      continue;
    }
    const [section, key, field] = pointer(change.path);
    const what = section === 'prune' ? text.change.prune(key ?? '') : text.change.type(key ?? '');
    if (change.op === 'replace' && field !== undefined)
      lines.push(text.change.count(key ?? '', field, before.get(change.path), change.value));
    else if (change.op === 'add') lines.push(text.change.added(field ? `${what} ${field}` : what));
    else if (change.op === 'remove') lines.push(text.change.removed(field ? `${what} ${field}` : what));
  }
  return lines;
}

/** Why the caller may not decide on a request, or null when they may (the API refuses the same). */
export function cannotDecide(
  approval: { status: string; requester: { user_id: string } },
  caller: { userId: string | undefined; canRestore: boolean },
): 'not_pending' | 'own' | 'role' | null {
  if (approval.status !== 'pending') return 'not_pending';
  if (!caller.canRestore) return 'role';
  if (approval.requester.user_id === caller.userId) return 'own';
  return null;
}
