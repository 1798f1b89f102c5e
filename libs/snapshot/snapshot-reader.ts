import { pMapIterable } from 'p-map';

import { KeyRing } from '@libs/crypto/key-ring.js';
import { ObjectStore } from '@libs/object-store/object-store.js';
import { ResourceRecord } from '@libs/records/resource-record.js';

import { contentHash } from './content-hash.js';
import { EncryptedObject, readEncryptedLines, readEncryptedText } from './encrypted-part-source.js';
import { IndexEntry, parseIndexLine } from './index-line.js';
import { IndexShardText } from './index-shard-text.js';
import { SnapshotIntegrityError } from './snapshot-errors.js';
import { objectAad, snapshotRoot } from './snapshot-layout.js';
import { frameAad, openFrame } from './frame-codec.js';
import { readSealedFrame, readSealedFrames } from './framed-part-source.js';
import { DataProjection, projectRecord } from './record-projection.js';
import { indexShardOf } from './index-shards.js';
import {
  IndexShardInfo,
  PartInfo,
  SnapshotManifest,
  openManifest,
  parseEnvelope,
  readManifestObject,
  withDataKey,
} from './snapshot-manifest.js';

export interface SnapshotReaderOptions {
  store: ObjectStore;
  prefix: string;
  /** must hold the master key the snapshot's data key is wrapped under */
  keyRing: KeyRing;
  /** `FinishedSnapshot.sha256` as recorded at write time; when given, any other snapshot is refused */
  expectedSha256?: string;
}

/** Frames read and decompressed at once (libuv's thread pool has 4 threads by default). */
const FRAMES_IN_FLIGHT = 4;
/** A part is read whole, not frame by frame, when more than 1 in this many of its frames are wanted. */
const DENSE_FRAME_SHARE = 4;
const NEWLINE = 0x0a;

/**
 * Reads a snapshot written by `SnapshotWriter`, streaming: no part is held in memory. Opening
 * authenticates the manifest; every frame and index chunk is authenticated (AES-GCM tags) as it is
 * read, and whole objects are checked against the manifest's SHA-256, size and counts when read to
 * their end. Single records can be read without the rest of their part (`findRecord`).
 */
export class SnapshotReader {
  private constructor(
    readonly manifest: SnapshotManifest,
    /** key id of the master key the data key is wrapped under (to find snapshots to re-wrap) */
    readonly keyId: string,
    /** the snapshot's fingerprint, as `FinishedSnapshot.sha256` */
    readonly sha256: string,
    private readonly store: ObjectStore,
    private readonly root: string,
    private readonly dataKey: Buffer,
  ) {}

  /**
   * @throws SnapshotNotFoundError when there is no manifest (never finished, or deleted)
   * @throws SnapshotIntegrityError when the manifest is altered, not the expected one, or its data
   *   key opens under no master key of the ring (`cause` is then the crypto error, e.g.
   *   UnknownKeyIdError after a retired master key was dropped)
   */
  static async open(options: SnapshotReaderOptions): Promise<SnapshotReader> {
    const root = snapshotRoot(options.prefix);
    const envelope = parseEnvelope(await readManifestObject(options.store, root));
    const dataKey = withDataKey(() => options.keyRing.unwrapKey(envelope.dataKey));
    const { manifest, sha256 } = await openManifest(envelope, dataKey);
    if (options.expectedSha256 !== undefined && options.expectedSha256 !== sha256) {
      throw new SnapshotIntegrityError(
        `snapshot under "${root}" is not the one recorded when it was written`,
      );
    }
    return new SnapshotReader(manifest, envelope.dataKey.kid, sha256, options.store, root, dataKey);
  }

  /** The resource types stored, in the order written. */
  get types(): string[] {
    return this.manifest.parts.map((part) => part.type);
  }

  /** True when the snapshot has a part (possibly empty) of `type`. */
  has(type: string): boolean {
    return this.manifest.parts.some((part) => part.type === type);
  }

  /**
   * Streams the records of one resource type, in the order written.
   * @throws RangeError when the snapshot has no part of that type
   * @throws SnapshotIntegrityError on any altered, missing or extra byte or record
   */
  async *readPart(type: string): AsyncGenerator<ResourceRecord> {
    for await (const records of this.readBatches(type)) yield* records;
  }

  /**
   * Streams the records of one resource type a frame at a time (a few thousand records), in the
   * order written: for readers of large parts, which then pay one await per frame, not per record.
   * @param fields when given, each record's `data` holds only these top-level members (those it
   *   has), read without parsing the rest of the record (`projectRecord`)
   * @throws RangeError when the snapshot has no part of that type
   * @throws SnapshotIntegrityError on any altered, missing or extra byte or record
   */
  async *readBatches(type: string, fields?: readonly string[]): AsyncGenerator<ResourceRecord[]> {
    const part = this.#part(type);
    const projection = fields === undefined ? undefined : new DataProjection(type, fields);
    let count = 0;
    for await (const { frame, text } of this.#frameTexts(part)) {
      const records =
        projection === undefined
          ? frameLines(text, part, frame).map((line) => parseRecord(line, type))
          : projectLines(text, part, frame, projection);
      count += records.length;
      yield records;
    }
    assertCount(part, count);
  }

  /**
   * Streams the content-hash index of one resource type, or of all in the order written; within a
   * type, shard by shard (record order within a shard).
   * @throws RangeError for a type the snapshot does not have; SnapshotIntegrityError as readPart
   */
  async *readIndex(type?: string): AsyncGenerator<IndexEntry> {
    for (const part of type === undefined ? this.manifest.parts : [this.#part(type)]) {
      for (const shard of part.index) yield* this.#readShard(part, shard);
    }
  }

  /**
   * Streams one index shard of a type (`index-shards.ts`); an unwritten shard has no entries.
   * @throws RangeError for a type the snapshot does not have; SnapshotIntegrityError as readPart
   */
  async *readIndexShard(type: string, shard: number): AsyncGenerator<IndexEntry> {
    const part = this.#part(type);
    const info = part.index.find((candidate) => candidate.shard === shard);
    if (info !== undefined) yield* this.#readShard(part, info);
  }

  /**
   * One index shard read whole, every check of {@link readIndexShard} done or left to
   * `IndexShardText.entry`, for comparing the shards of two snapshots without an object per entry
   * (`diffIndexShards`). Memory holds the shard's text: about 110 bytes per entry.
   * @throws RangeError for a type the snapshot does not have; SnapshotIntegrityError as readPart
   */
  async readIndexShardText(type: string, shard: number): Promise<IndexShardText> {
    const part = this.#part(type);
    const info = part.index.find((candidate) => candidate.shard === shard);
    const label = shardLabel(type, shard);
    if (info === undefined) return IndexShardText.empty({ type, shard, frames: part.frames.length, label });
    const text = await readEncryptedText(this.store, this.#shardObject(part, info));
    return new IndexShardText(text, { type, shard, count: info.count, frames: part.frames.length, label });
  }

  /**
   * The SHA-256 of one index shard's entries as recorded in the manifest (`IndexShardInfo`), or
   * null for a shard with no entries. Two snapshots whose shard digests match hold the same ids
   * and content hashes in that shard, so a diff need not read it.
   * @throws RangeError for a type the snapshot does not have
   */
  shardDigest(type: string, shard: number): string | null {
    return this.#part(type).index.find((candidate) => candidate.shard === shard)?.entriesSha256 ?? null;
  }

  /**
   * The index entry of one record, reading only its shard.
   * @returns undefined when the snapshot has no such record (or no part of that type)
   */
  async findEntry(type: string, id: string): Promise<IndexEntry | undefined> {
    if (!this.has(type)) return undefined;
    const shard = this.readIndexShard(type, indexShardOf(id));
    for await (const entry of shard) {
      if (entry.id === id) {
        await shard.return(undefined);
        return entry;
      }
    }
    return undefined;
  }

  /**
   * One record and its index entry, reading one index shard and one frame.
   * @returns undefined when the snapshot has no such record
   * @throws SnapshotIntegrityError when the index and the frame disagree, or either is altered
   */
  async findRecord(
    type: string,
    id: string,
  ): Promise<{ entry: IndexEntry; record: ResourceRecord } | undefined> {
    const entry = await this.findEntry(type, id);
    if (entry === undefined) return undefined;
    for await (const record of this.readRecords(type, [entry])) return { entry, record };
    throw new SnapshotIntegrityError(
      `index of "${type}" places ${id} in frame ${entry.frame}, which lacks it`,
    );
  }

  /**
   * The records named by index entries (id and frame), reading only their frames: ranged reads
   * when few frames are wanted, one sequential read when most are. In each frame the wanted lines
   * are found by their id prefix and only they are decoded and parsed, so picking 1,000 records
   * out of 100,000 costs little more than decompressing their frames.
   * @yields the records in frame order
   * @throws RangeError for a type or frame the snapshot does not have
   * @throws SnapshotIntegrityError when a frame is altered or lacks a record its entry places there
   */
  async *readRecords(
    type: string,
    entries: Iterable<Pick<IndexEntry, 'id' | 'frame'>>,
  ): AsyncGenerator<ResourceRecord> {
    const part = this.#part(type);
    const idsByFrame = new Map<number, string[]>();
    for (const { id, frame } of entries) {
      if (!Number.isInteger(frame) || frame < 0 || frame >= part.frames.length) {
        throw new RangeError(`part "${type}" has no frame ${frame}`);
      }
      const ids = idsByFrame.get(frame);
      if (ids === undefined) idsByFrame.set(frame, [id]);
      else ids.push(id);
    }
    if (idsByFrame.size === 0) return;
    const frames = [...idsByFrame.keys()].sort((a, b) => a - b);
    for await (const { frame, text } of this.#frameTexts(part, frames)) {
      for (const id of idsByFrame.get(frame) as string[])
        yield parseRecord(lineOf(text, type, id, frame), type);
    }
  }

  /**
   * The records at these positions of a part (0-based, in the order written, as `readPart`
   * yields them), reading only the frames that hold them: a caller that planned a million writes
   * keeps a number per record, not its id (libs/restore/planner.ts).
   * @param positions ascending
   * @yields each wanted record with its position, in order
   * @throws RangeError for a type the snapshot does not have, a position beyond the part or
   *   positions out of order; SnapshotIntegrityError as readPart
   */
  async *readPositions(
    type: string,
    positions: readonly number[],
  ): AsyncGenerator<{ position: number; record: ResourceRecord }> {
    const part = this.#part(type);
    const starts: number[] = [];
    let total = 0;
    for (const frame of part.frames) {
      starts.push(total);
      total += frame.records;
    }
    const frames: number[] = [];
    let frame = 0;
    let previous = -1;
    for (const position of positions) {
      if (!Number.isInteger(position) || position <= previous || position >= total)
        throw new RangeError(`part "${type}" has no record at position ${position} (or out of order)`);
      previous = position;
      while (position >= starts[frame] + part.frames[frame].records) frame += 1;
      if (frames.at(-1) !== frame) frames.push(frame);
    }
    if (frames.length === 0) return;
    let next = 0;
    for await (const { frame: opened, text } of this.#frameTexts(part, frames)) {
      const lines = frameLines(text, part, opened);
      const end = starts[opened] + lines.length;
      for (; next < positions.length && positions[next] < end; next += 1)
        yield {
          position: positions[next],
          record: parseRecord(lines[positions[next] - starts[opened]], type),
        };
    }
  }

  /**
   * Reads the whole snapshot and checks it: every byte, tag, digest and count of every part and
   * index shard, and that each record has an index entry in its shard, in order, with its frame
   * and recomputed content hash. Memory stays flat (shards are read side by side with the part).
   * @throws SnapshotIntegrityError at the first problem
   */
  async verify(): Promise<void> {
    const volatile = new Set(this.manifest.volatileFields);
    for (const part of this.manifest.parts) {
      const shards = new Map(part.index.map((info) => [info.shard, this.#readShard(part, info)]));
      try {
        let count = 0;
        for await (const { frame, text } of this.#frameTexts(part)) {
          const lines = frameLines(text, part, frame);
          count += lines.length;
          for (const line of lines) {
            const record = parseRecord(line, part.type);
            const entry = await shards.get(indexShardOf(record.id))?.next();
            if (
              entry === undefined ||
              entry.done ||
              entry.value.id !== record.id ||
              entry.value.frame !== frame ||
              entry.value.hash !== contentHash(record.data, volatile)
            ) {
              throw new SnapshotIntegrityError(`index of "${part.type}" does not match record ${record.id}`);
            }
          }
        }
        assertCount(part, count);
        // Runs each shard to its end, which checks its digest and count.
        for (const shard of shards.values()) {
          if (!(await shard.next()).done) {
            throw new SnapshotIntegrityError(`index of "${part.type}" has extra entries`);
          }
        }
      } finally {
        for (const shard of shards.values()) await shard.return(undefined);
      }
    }
  }

  #part(type: string): PartInfo {
    const part = this.manifest.parts.find((candidate) => candidate.type === type);
    if (part === undefined) throw new RangeError(`snapshot has no "${type}" part`);
    return part;
  }

  /**
   * Opened frames of a part (decompressed text), in order: all of them, or only `wanted` (sorted).
   * Up to FRAMES_IN_FLIGHT are read and decompressed at once (the thread pool works while the
   * caller reads earlier frames). Few wanted frames are fetched with ranged reads; otherwise the
   * object is read once, front to back (its size and SHA-256 checked at the end), and unwanted
   * frames are skipped unopened.
   */
  async *#frameTexts(
    part: PartInfo,
    wanted?: readonly number[],
  ): AsyncGenerator<{ frame: number; text: Buffer }> {
    const label = `part "${part.type}"`;
    const aad = objectAad(this.manifest.snapshotId, part.key);
    const object = { ...part, key: this.root + part.key };
    const open = async ({ frame, sealed }: { frame: number; sealed: Buffer }) => ({
      frame,
      text: await openFrame(this.dataKey, frameAad(aad, frame), sealed, label),
    });
    let sealedFrames: AsyncIterable<{ frame: number; sealed: Buffer }>;
    if (wanted !== undefined && wanted.length <= part.frames.length / DENSE_FRAME_SHARE) {
      const { store } = this;
      sealedFrames = (async function* () {
        for (const frame of wanted)
          yield { frame, sealed: await readSealedFrame(store, object, frame, label) };
      })();
    } else {
      const set = wanted === undefined ? undefined : new Set(wanted);
      const { store } = this;
      sealedFrames = (async function* () {
        let frame = 0;
        for await (const sealed of readSealedFrames(store, object, label)) {
          if (set === undefined || set.has(frame)) yield { frame, sealed };
          frame += 1;
        }
      })();
    }
    yield* pMapIterable(sealedFrames, open, { concurrency: FRAMES_IN_FLIGHT });
  }

  async *#readShard(part: PartInfo, shard: IndexShardInfo): AsyncGenerator<IndexEntry> {
    const object = this.#shardObject(part, shard);
    let count = 0;
    for await (const line of readEncryptedLines(this.store, object)) {
      const entry = parseIndexLine(line);
      if (
        entry === undefined ||
        entry.frame >= part.frames.length ||
        indexShardOf(entry.id) !== shard.shard
      ) {
        throw new SnapshotIntegrityError(`${object.label}: line ${count + 1} is not a valid entry`);
      }
      count += 1;
      yield { type: part.type, ...entry };
    }
    if (count !== shard.count) {
      throw new SnapshotIntegrityError(`${object.label}: ${count} lines, the manifest says ${shard.count}`);
    }
  }

  #shardObject(part: PartInfo, shard: IndexShardInfo): EncryptedObject {
    return {
      key: this.root + shard.key,
      dataKey: this.dataKey,
      aad: objectAad(this.manifest.snapshotId, shard.key),
      expected: { ...shard, plainSha256: shard.entriesSha256 },
      label: shardLabel(part.type, shard.shard),
    };
  }
}

function shardLabel(type: string, shard: number): string {
  return `index of "${type}" (shard ${shard})`;
}

/** The NDJSON lines of an opened frame, checked against the manifest's record count for it. */
function frameLines(text: Buffer, part: PartInfo, frame: number): string[] {
  const lines = text.toString('utf8').split('\n');
  assertFrameCount(part, frame, lines.length - 1, lines.pop() === '');
  return lines;
}

/** The records of an opened frame with only the projection's members of `data`, checked as `frameLines`. */
function projectLines(
  text: Buffer,
  part: PartInfo,
  frame: number,
  projection: DataProjection,
): ResourceRecord[] {
  const records: ResourceRecord[] = [];
  let start = 0;
  for (let end = text.indexOf(NEWLINE); end !== -1; end = text.indexOf(NEWLINE, start)) {
    records.push(projectRecord(text, start, end, part.type, projection));
    start = end + 1;
  }
  assertFrameCount(part, frame, records.length, start === text.length);
  return records;
}

/** @throws SnapshotIntegrityError unless a frame held the manifest's count of whole lines */
function assertFrameCount(part: PartInfo, frame: number, lines: number, endsWithNewline: boolean): void {
  if (!endsWithNewline || lines !== part.frames[frame].records) {
    throw new SnapshotIntegrityError(
      `part "${part.type}": frame ${frame} does not hold the ${part.frames[frame].records} records the manifest says`,
    );
  }
}

function parseRecord(line: string, type: string): ResourceRecord {
  const record = parseLine(line, `part "${type}"`) as ResourceRecord;
  if (record?.type !== type || typeof record.id !== 'string') {
    throw new SnapshotIntegrityError(`part "${type}": a line is not a record of that type`);
  }
  return record;
}

/**
 * The line of record `id` in a frame's text, found by the prefix the writer gives every record
 * line (`{"type":"user","id":"00u1",`) at the start of a line; only that line is decoded.
 * @throws SnapshotIntegrityError when the frame holds no such line
 */
function lineOf(text: Buffer, type: string, id: string, frame: number): string {
  const prefix = Buffer.from(`{"type":${JSON.stringify(type)},"id":${JSON.stringify(id)},`, 'utf8');
  for (let at = text.indexOf(prefix); at !== -1; at = text.indexOf(prefix, at + 1)) {
    if (at === 0 || text[at - 1] === NEWLINE) {
      const end = text.indexOf(NEWLINE, at);
      return text.toString('utf8', at, end === -1 ? text.length : end);
    }
  }
  throw new SnapshotIntegrityError(
    `part "${type}": frame ${frame} lacks record ${id}, which its index places there`,
  );
}

/** @throws SnapshotIntegrityError when a part read whole did not hold the manifest's count */
function assertCount(part: PartInfo, count: number): void {
  if (count !== part.count) {
    throw new SnapshotIntegrityError(
      `part "${part.type}": ${count} records, the manifest says ${part.count}`,
    );
  }
}

function parseLine(line: string, label: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch (error) {
    throw new SnapshotIntegrityError(`${label}: a line is not JSON`, { cause: error });
  }
}
