import { IndexEntry } from './index-line.js';
import { IndexShardText } from './index-shard-text.js';

/** The entries of one shard that differ between two snapshots. */
export interface IndexShardChanges {
  added: IndexEntry[];
  removed: IndexEntry[];
  modified: Array<{ from: IndexEntry; to: IndexEntry }>;
}

const EMPTY_SLOT = -1;

/**
 * Compares the same shard of one type in two snapshots by record id and content hash. Entries whose
 * id and hash are equal cost a few byte comparisons and leave nothing behind; only the entries that
 * differ are parsed. The `before` ids go into an open-addressing table (linear probing over a typed
 * array at most half full), so memory is two shard texts and a few bytes per entry. An id written
 * twice counts once, at its last line before and its first line after (a record seen twice in
 * `after` is added once more).
 * @throws SnapshotIntegrityError when an entry that differs is not a valid entry of its shard
 */
export function diffIndexShards(before: IndexShardText, after: IndexShardText): IndexShardChanges {
  const changes: IndexShardChanges = { added: [], removed: [], modified: [] };
  const mask = tableSize(before.count) - 1;
  const slots = new Int32Array(mask + 1).fill(EMPTY_SLOT);
  // 1: matched by an entry of `after`, or superseded by a later line of the same id.
  const settled = new Uint8Array(before.count);
  for (let line = 0; line < before.count; line += 1) {
    let slot = before.idHash(line) & mask;
    while (slots[slot] !== EMPTY_SLOT && !before.sameId(slots[slot], before, line)) slot = (slot + 1) & mask;
    if (slots[slot] !== EMPTY_SLOT) settled[slots[slot]] = 1;
    slots[slot] = line;
  }
  for (let line = 0; line < after.count; line += 1) {
    let slot = after.idHash(line) & mask;
    while (slots[slot] !== EMPTY_SLOT && !before.sameId(slots[slot], after, line)) slot = (slot + 1) & mask;
    const match = slots[slot];
    if (match === EMPTY_SLOT || settled[match] === 1) {
      changes.added.push(after.entry(line));
      continue;
    }
    settled[match] = 1;
    if (!before.sameHash(match, after, line)) {
      changes.modified.push({ from: before.entry(match), to: after.entry(line) });
    }
  }
  for (let line = 0; line < before.count; line += 1) {
    if (settled[line] === 0) changes.removed.push(before.entry(line));
  }
  return changes;
}

/** A power of two at least twice `count`, so that probes stay short. */
function tableSize(count: number): number {
  let size = 2;
  while (size < 2 * count) size *= 2;
  return size;
}
