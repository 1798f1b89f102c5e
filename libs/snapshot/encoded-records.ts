import type { ResourceRecord } from '@libs/records/resource-record.js';

import { withRoom } from './buffer-room.js';
import { contentHash } from './content-hash.js';
import { SnapshotWriteError } from './snapshot-errors.js';

const CLOSE_BRACE = 0x7d;

/**
 * Records of one type already in the form a snapshot part stores them (DESIGN section 5): NDJSON
 * lines as UTF-8 bytes, with each record's id and content hash. Made where the records were
 * parsed (a worker thread, see libs/providers/kit/page-encoder-pool.ts), so that the writer only
 * copies bytes and adds index entries; a structured clone carries it between threads.
 */
export interface EncodedRecords {
  /** The lines back to back, without newlines. */
  lines: Uint8Array;
  /** Where each line ends in `lines`: line i is `[ends[i - 1] ?? 0, ends[i])`. */
  ends: Uint32Array;
  ids: string[];
  /** `contentHash(data, volatileFields)` of each record. */
  hashes: string[];
  /** The fields left out of `hashes`; the writer refuses a list other than its own. */
  volatileFields: readonly string[];
}

/** Tells encoded records from a record (which has no `ends`), or from anything else. */
export function isEncodedRecords(value: ResourceRecord | EncodedRecords): value is EncodedRecords {
  return typeof value === 'object' && value !== null && 'ends' in value;
}

/** A record's NDJSON line in a snapshot part, without its newline. */
export function recordLine(record: ResourceRecord): string {
  const { type, id, name, data } = record;
  return JSON.stringify({ type, id, name, data });
}

/**
 * Encodes `records`, each checked as the writer checks it.
 * @param volatileFields left out of the content hashes (a snapshot's `volatileFields`)
 * @param dataText the provider's own UTF-8 JSON text of record i's `data`, when its data is that
 *   text parsed and nothing else (nothing redacted), on one line: the line then holds the text as
 *   is, instead of `data` serialized again. Undefined (or no function): serialized.
 * @throws SnapshotWriteError for a record of another type or shape
 */
export function encodeRecords(
  type: string,
  records: readonly ResourceRecord[],
  volatileFields: readonly string[],
  dataText?: (index: number) => Uint8Array | undefined,
): EncodedRecords {
  const omit = new Set(volatileFields);
  const ends = new Uint32Array(records.length);
  const ids: string[] = [];
  const hashes: string[] = [];
  const typeMember = `{"type":${JSON.stringify(type)},"id":`;
  let lines: Buffer = Buffer.allocUnsafe(1024 * Math.max(1, records.length));
  let length = 0;
  const reserve = (bytes: number) => (lines = withRoom(lines, length, bytes));
  records.forEach((record, index) => {
    assertRecord(record, type);
    const text = dataText?.(index);
    if (text === undefined) {
      const line = recordLine(record);
      // UTF-8 takes at most 3 bytes per UTF-16 code unit.
      reserve(3 * line.length);
      length += lines.write(line, length, 'utf8');
    } else {
      // recordLine's members in its order, `data` last and as the provider wrote it.
      const head = `${typeMember}${JSON.stringify(record.id)},"name":${JSON.stringify(record.name)},"data":`;
      reserve(3 * head.length + text.length + 1);
      length += lines.write(head, length, 'utf8');
      lines.set(text, length);
      length += text.length;
      lines[length++] = CLOSE_BRACE;
    }
    ends[index] = length;
    ids.push(record.id);
    hashes.push(contentHash(record.data, omit));
  });
  // A view would carry its whole backing buffer across threads: copy the lines out.
  const exact = new Uint8Array(length);
  exact.set(lines.subarray(0, length));
  return { lines: exact, ends, ids, hashes, volatileFields };
}

/**
 * The records `keep` answers true for, in order: `encoded` itself when that is all of them.
 * @param keep asked once per record, in order (so it may remember the ids it has seen)
 */
export function keepRecords(encoded: EncodedRecords, keep: (id: string) => boolean): EncodedRecords {
  const kept = encoded.ids.map((id) => keep(id));
  if (kept.every(Boolean)) return encoded;
  const startOf = (index: number) => (index === 0 ? 0 : encoded.ends[index - 1]);
  const indexes = kept.flatMap((yes, index) => (yes ? [index] : []));
  const lines = new Uint8Array(indexes.reduce((sum, i) => sum + encoded.ends[i] - startOf(i), 0));
  const ends = new Uint32Array(indexes.length);
  indexes.forEach((i, at) => {
    const from = at === 0 ? 0 : ends[at - 1];
    lines.set(encoded.lines.subarray(startOf(i), encoded.ends[i]), from);
    ends[at] = from + encoded.ends[i] - startOf(i);
  });
  return {
    lines,
    ends,
    ids: indexes.map((i) => encoded.ids[i]),
    hashes: indexes.map((i) => encoded.hashes[i]),
    volatileFields: encoded.volatileFields,
  };
}

/**
 * Checks that `record` is a record of `type` a snapshot can hold: an id, a string or null name,
 * JSON object data.
 * @throws SnapshotWriteError otherwise
 */
export function assertRecord(record: ResourceRecord, type: string): void {
  if (record?.type !== type) {
    throw new SnapshotWriteError(
      `a record of type "${String(record?.type)}" was given for the "${type}" part`,
    );
  }
  const { id, name, data } = record;
  if (typeof id !== 'string' || id === '') throw new SnapshotWriteError(`a "${type}" record has no id`);
  if (name !== null && typeof name !== 'string') {
    throw new SnapshotWriteError(`"${type}" record ${id}: name must be a string or null`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw new SnapshotWriteError(`"${type}" record ${id}: data must be a JSON object`);
  }
}
