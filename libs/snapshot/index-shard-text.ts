import { HASH_FIELD_CHARS, IndexEntry, parseIndexLine } from './index-line.js';
import { indexShardOf } from './index-shards.js';
import { SnapshotIntegrityError } from './snapshot-errors.js';

/** What the manifest says of one index shard, to check its text against. */
export interface IndexShardInfoForText {
  type: string;
  shard: number;
  /** entries (lines) in the shard */
  count: number;
  /** frames of the type's part: every entry must name one of them */
  frames: number;
  /** names the shard in error messages */
  label: string;
}

const NEWLINE = 0x0a;
const DIGIT_0 = 0x30;
const DIGIT_9 = 0x39;
const ID_FIELD = Buffer.from('{"id":"', 'latin1');
const HASH_FIELD = Buffer.from(',"hash":"', 'latin1');
const FRAME_FIELD = Buffer.from(',"frame":', 'latin1');
const HASH_HEX_CHARS = 64;
/** FNV-1a (Fowler, Noll, Vo), 32 bits, as `index-shards.ts` uses it. */
const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/**
 * The text of one index shard (`{"id":...,"hash":"...","frame":n}` lines, as `IndexShardWriter`
 * writes them), held as bytes with the positions of its lines, so that two shards can be compared
 * entry by entry without a string or an object per entry: at 100,000 records a diff compares
 * 200,000 entries and keeps the few that differ. Lines are located and their shape checked on
 * construction; {@link entry} parses and checks one line fully.
 */
export class IndexShardText {
  readonly type: string;
  readonly shard: number;
  readonly count: number;
  readonly #bytes: Buffer;
  readonly #frames: number;
  readonly #label: string;
  /** where line i starts; `#starts[count]` is one past the last newline */
  readonly #starts: Int32Array;
  /** where the `,"hash":"` of line i starts; its id's JSON string is `#starts[i] + 6` up to there */
  readonly #hashFields: Int32Array;

  /**
   * @param bytes the shard's whole plaintext, already authenticated and checked against the
   *   manifest's digest (`SnapshotReader.readIndexShardText`)
   * @throws SnapshotIntegrityError when the text does not hold `info.count` lines of the index shape
   */
  constructor(bytes: Buffer, info: IndexShardInfoForText) {
    this.type = info.type;
    this.shard = info.shard;
    this.count = info.count;
    this.#bytes = bytes;
    this.#frames = info.frames;
    this.#label = info.label;
    this.#starts = new Int32Array(info.count + 1);
    this.#hashFields = new Int32Array(info.count);
    let start = 0;
    let line = 0;
    while (start < bytes.length) {
      const end = bytes.indexOf(NEWLINE, start);
      if (line === info.count || end === -1) throw this.#invalid(line);
      const hashField = this.#hashFieldOf(start, end);
      if (hashField === -1) throw this.#invalid(line);
      this.#starts[line] = start;
      this.#hashFields[line] = hashField;
      line += 1;
      start = end + 1;
    }
    if (line !== info.count) {
      throw new SnapshotIntegrityError(`${info.label}: ${line} lines, the manifest says ${info.count}`);
    }
    this.#starts[line] = start;
  }

  /** A shard the writer never opened: no entries. */
  static empty(info: Omit<IndexShardInfoForText, 'count'>): IndexShardText {
    return new IndexShardText(Buffer.alloc(0), { ...info, count: 0 });
  }

  /** 32-bit FNV-1a of the id of line `line`, as written (its JSON string). */
  idHash(line: number): number {
    const bytes = this.#bytes;
    let hash = FNV_OFFSET;
    for (let at = this.#starts[line] + 6, end = this.#hashFields[line]; at < end; at += 1) {
      hash = Math.imul(hash ^ bytes[at], FNV_PRIME);
    }
    return hash >>> 0;
  }

  /** True when line `line` and line `otherLine` of `other` name the same record id. */
  sameId(line: number, other: IndexShardText, otherLine: number): boolean {
    const start = this.#starts[line] + 6;
    const length = this.#hashFields[line] - start;
    const otherStart = other.#starts[otherLine] + 6;
    return (
      length === other.#hashFields[otherLine] - otherStart &&
      equalBytes(this.#bytes, start, other.#bytes, otherStart, length)
    );
  }

  /** True when line `line` and line `otherLine` of `other` hold the same content hash. */
  sameHash(line: number, other: IndexShardText, otherLine: number): boolean {
    const start = this.#hashFields[line] + HASH_FIELD.length;
    const otherStart = other.#hashFields[otherLine] + HASH_FIELD.length;
    return equalBytes(this.#bytes, start, other.#bytes, otherStart, HASH_HEX_CHARS);
  }

  /**
   * The entry of line `line`, parsed and checked.
   * @throws SnapshotIntegrityError when the line is not a valid entry of this shard
   */
  entry(line: number): IndexEntry {
    const text = this.#bytes.toString('utf8', this.#starts[line], this.#starts[line + 1] - 1);
    const entry = parseIndexLine(text);
    if (entry === undefined || entry.frame >= this.#frames || indexShardOf(entry.id) !== this.shard) {
      throw this.#invalid(line);
    }
    return { type: this.type, ...entry };
  }

  /** Where the `,"hash":"` of the line from `start` to `end` (its newline) is, or -1 for another shape. */
  #hashFieldOf(start: number, end: number): number {
    const bytes = this.#bytes;
    let digits = end - 1;
    if (bytes[digits] !== 0x7d /* } */) return -1;
    while (digits > start && bytes[digits - 1] >= DIGIT_0 && bytes[digits - 1] <= DIGIT_9) digits -= 1;
    const frameField = digits - FRAME_FIELD.length;
    const hashField = frameField - HASH_FIELD_CHARS;
    if (digits === end - 1 || hashField < start + ID_FIELD.length + 1) return -1;
    if (
      !this.#holds(ID_FIELD, start) ||
      !this.#holds(HASH_FIELD, hashField) ||
      !this.#holds(FRAME_FIELD, frameField) ||
      bytes[frameField - 1] !== 0x22 /* " */
    ) {
      return -1;
    }
    return hashField;
  }

  #holds(field: Buffer, at: number): boolean {
    return equalBytes(this.#bytes, at, field, 0, field.length);
  }

  #invalid(line: number): SnapshotIntegrityError {
    return new SnapshotIntegrityError(`${this.#label}: line ${line + 1} is not a valid entry`);
  }
}

/**
 * True when `length` bytes of `a` from `aStart` equal those of `b` from `bStart`. A loop, not
 * `Buffer.compare`: for the few bytes of an id or a hash, that call's argument checks cost more
 * than the comparison (a diff makes hundreds of thousands of them).
 */
function equalBytes(a: Uint8Array, aStart: number, b: Uint8Array, bStart: number, length: number): boolean {
  for (let i = 0; i < length; i += 1) if (a[aStart + i] !== b[bStart + i]) return false;
  return true;
}
