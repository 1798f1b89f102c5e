import { createHash } from 'node:crypto';

import { KeyRing } from '@libs/crypto/key-ring.js';
import { ObjectStore } from '@libs/object-store/object-store.js';
import { ResourceRecord } from '@libs/providers/resource-types.js';

import { contentHash } from './content-hash.js';
import { readEncryptedLines } from './encrypted-part-source.js';
import { SnapshotIntegrityError } from './snapshot-errors.js';
import { objectAad, snapshotRoot } from './snapshot-layout.js';
import { frameAad, openFrame } from './frame-codec.js';
import { readSealedFrame, readSealedFrames } from './framed-part-source.js';
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

/** One entry of a content-hash index. */
export interface IndexEntry {
  type: string;
  id: string;
  /** `contentHash(record.data, manifest.volatileFields)` */
  hash: string;
  /** the frame of the part that holds the record */
  frame: number;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

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
    for await (const { lines } of this.#frames(this.#part(type))) {
      for (const line of lines) yield parseRecord(line, type);
    }
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
    for await (const record of this.readRecords(type, [entry.frame], (candidate) => candidate === id)) {
      return { entry, record };
    }
    throw new SnapshotIntegrityError(
      `index of "${type}" places ${id} in frame ${entry.frame}, which lacks it`,
    );
  }

  /**
   * The records of some frames of a part whose id `wanted` accepts; other lines are not parsed, so
   * picking a few records out of many frames costs little more than decompressing them.
   * @param frames frame numbers (from index entries), read in ascending order, each once
   * @throws RangeError for a type or frame the snapshot does not have; SnapshotIntegrityError
   */
  async *readRecords(
    type: string,
    frames: Iterable<number>,
    wanted: (id: string) => boolean,
  ): AsyncGenerator<ResourceRecord> {
    const part = this.#part(type);
    const label = `part "${type}"`;
    const aad = objectAad(this.manifest.snapshotId, part.key);
    const object = { ...part, key: this.root + part.key };
    for (const frame of [...new Set(frames)].sort((a, b) => a - b)) {
      const sealed = await readSealedFrame(this.store, object, frame, label);
      const lines = frameLines(
        await openFrame(this.dataKey, frameAad(aad, frame), sealed, label),
        part,
        frame,
      );
      for (const line of lines) {
        if (wanted(recordIdOf(line, type, label))) yield parseRecord(line, type);
      }
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
        for await (const { frame, lines } of this.#frames(part)) {
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
   * The frames of a part, opened one ahead of the caller (decompression runs on the thread pool
   * while the caller works on the frame before), with their lines.
   */
  async *#frames(part: PartInfo): AsyncGenerator<{ frame: number; lines: string[] }> {
    const label = `part "${part.type}"`;
    const aad = objectAad(this.manifest.snapshotId, part.key);
    const object = { ...part, key: this.root + part.key };
    let ahead: Promise<Buffer> | undefined;
    let frame = 0;
    let count = 0;
    for await (const sealed of readSealedFrames(this.store, object, label)) {
      const opening = openFrame(this.dataKey, frameAad(aad, frame), sealed, label);
      opening.catch(() => undefined);
      if (ahead !== undefined) {
        const lines = frameLines(await ahead, part, frame - 1);
        count += lines.length;
        yield { frame: frame - 1, lines };
      }
      ahead = opening;
      frame += 1;
    }
    if (ahead !== undefined) {
      const lines = frameLines(await ahead, part, frame - 1);
      count += lines.length;
      yield { frame: frame - 1, lines };
    }
    if (count !== part.count) {
      throw new SnapshotIntegrityError(`${label}: ${count} records, the manifest says ${part.count}`);
    }
  }

  async *#readShard(part: PartInfo, shard: IndexShardInfo): AsyncGenerator<IndexEntry> {
    const label = `index of "${part.type}" (shard ${shard.shard})`;
    const digest = createHash('sha256');
    let count = 0;
    for await (const line of readEncryptedLines(
      this.store,
      this.root + shard.key,
      this.dataKey,
      objectAad(this.manifest.snapshotId, shard.key),
      shard,
      label,
    )) {
      const entry = parseLine(line, label) as Partial<IndexEntry>;
      if (
        typeof entry.id !== 'string' ||
        indexShardOf(entry.id) !== shard.shard ||
        typeof entry.hash !== 'string' ||
        !SHA256_HEX.test(entry.hash) ||
        !Number.isInteger(entry.frame) ||
        (entry.frame as number) < 0 ||
        (entry.frame as number) >= part.frames.length
      ) {
        throw new SnapshotIntegrityError(`${label}: line ${count + 1} is not a valid entry`);
      }
      count += 1;
      digest.update(`${line}\n`, 'utf8');
      yield { type: part.type, id: entry.id, hash: entry.hash, frame: entry.frame as number };
    }
    if (count !== shard.count) {
      throw new SnapshotIntegrityError(`${label}: ${count} lines, the manifest says ${shard.count}`);
    }
    if (digest.digest('hex') !== shard.entriesSha256) {
      throw new SnapshotIntegrityError(`${label}: entries do not match the manifest's digest`);
    }
  }
}

/** The NDJSON lines of an opened frame, checked against the manifest's record count for it. */
function frameLines(text: Buffer, part: PartInfo, frame: number): string[] {
  const lines = text.toString('utf8').split('\n');
  if (lines.pop() !== '' || lines.length !== part.frames[frame].records) {
    throw new SnapshotIntegrityError(
      `part "${part.type}": frame ${frame} does not hold the ${part.frames[frame].records} records the manifest says`,
    );
  }
  return lines;
}

function parseRecord(line: string, type: string): ResourceRecord {
  const record = parseLine(line, `part "${type}"`) as ResourceRecord;
  if (record?.type !== type || typeof record.id !== 'string') {
    throw new SnapshotIntegrityError(`part "${type}": a line is not a record of that type`);
  }
  return record;
}

/**
 * The id of a record line without parsing the rest: the writer puts `type` then `id` first
 * (`{"type":"user","id":"00u1",...`).
 * @throws SnapshotIntegrityError when the line does not start that way
 */
function recordIdOf(line: string, type: string, label: string): string {
  const prefix = `{"type":"${type}","id":"`;
  if (line.startsWith(prefix)) {
    for (let end = prefix.length; end < line.length; end += 1) {
      if (line[end] === '\\') end += 1;
      else if (line[end] === '"') return JSON.parse(line.slice(prefix.length - 1, end + 1)) as string;
    }
  }
  throw new SnapshotIntegrityError(`${label}: a line is not a record of that type`);
}

function parseLine(line: string, label: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch (error) {
    throw new SnapshotIntegrityError(`${label}: a line is not JSON`, { cause: error });
  }
}
