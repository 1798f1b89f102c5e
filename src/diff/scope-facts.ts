import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import type { ScopeFacts } from '@libs/diff/change-facts.js';

/** The parent record id of a child record `<parentId>:<childId>` (libs/records/resource-record.ts). */
function parentOf(recordId: string): string {
  return recordId.slice(0, recordId.lastIndexOf(':'));
}

/** One snapshot's side: the parent records it holds, and how many records of the type each has. */
interface ScopeSide {
  parents: ReadonlySet<string>;
  children: ReadonlyMap<string, number>;
}

async function sideOf(reader: SnapshotReader, type: string, parentType: string): Promise<ScopeSide | null> {
  if (!reader.has(type) || !reader.has(parentType)) return null;
  const parents = new Set<string>();
  for await (const entry of reader.readIndex(parentType)) parents.add(entry.id);
  const children = new Map<string, number>();
  for await (const entry of reader.readIndex(type)) {
    const parent = parentOf(entry.id);
    children.set(parent, (children.get(parent) ?? 0) + 1);
  }
  return { parents, children };
}

/**
 * For a type whose records limit their parent (`scopingParents`: Okta's admin role targets), what the
 * severity rules need to tell a widening from a narrowing (ChangeFacts `scope`): a removed
 * record is judged against the newer snapshot, an added one against the older. Reads the two
 * snapshots' indexes of the type and its parent (ids only: a few per admin role). Other types,
 * or a snapshot without either type: no facts (undefined).
 * @returns (action, record id) -> ScopeFacts | undefined
 */
export async function scopeFactsOf(
  from: SnapshotReader,
  to: SnapshotReader,
  type: string,
  scopingParents: Readonly<Record<string, string>>,
): Promise<(action: 'added' | 'removed', recordId: string) => ScopeFacts | undefined> {
  const parentType = scopingParents[type];
  if (parentType === undefined) return () => undefined;
  const [older, newer] = await Promise.all([sideOf(from, type, parentType), sideOf(to, type, parentType)]);
  return (action, recordId) => {
    const side = action === 'removed' ? newer : older;
    if (side === null) return undefined;
    const parent = parentOf(recordId);
    return { parentKept: side.parents.has(parent), siblings: side.children.get(parent) ?? 0 };
  };
}
