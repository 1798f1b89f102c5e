import { KeyRing } from '@libs/crypto/key-ring.js';
import { ObjectStore } from '@libs/object-store/object-store.js';
import { ResourceRecord } from '@libs/providers/resource-types.js';

import { contentHash } from './content-hash.js';
import { readEncryptedLines } from './encrypted-part-source.js';
import { SnapshotIntegrityError } from './snapshot-errors.js';
import { objectAad, snapshotRoot } from './snapshot-layout.js';
import {
  PartInfo,
  SnapshotManifest,
  StoredObjectInfo,
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

/** One line of a content-hash index. */
export interface IndexEntry {
  type: string;
  id: string;
  /** `contentHash(record.data, manifest.volatileFields)` */
  hash: string;
}

const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * Reads a snapshot written by `SnapshotWriter`, streaming: no part is held in memory. Opening
 * authenticates the manifest; every part is then checked chunk by chunk (AES-GCM tags) as it is
 * read and against the manifest's SHA-256, size and count when it ends.
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

  /**
   * Streams the records of one resource type, in the order written.
   * @throws RangeError when the snapshot has no part of that type
   * @throws SnapshotIntegrityError on any altered, missing or extra byte or record
   */
  async *readPart(type: string): AsyncGenerator<ResourceRecord> {
    const part = this.#part(type);
    yield* this.#readLines(part, part, `part "${type}"`, (value) => {
      const record = value as ResourceRecord;
      return record.type === type && typeof record.id === 'string' ? record : undefined;
    });
  }

  /**
   * Streams the content-hash index of one resource type, or of all in the order written.
   * @throws RangeError for a type the snapshot does not have; SnapshotIntegrityError as readPart
   */
  async *readIndex(type?: string): AsyncGenerator<IndexEntry> {
    for (const part of type === undefined ? this.manifest.parts : [this.#part(type)]) {
      yield* this.#readLines(part, part.index, `index of "${part.type}"`, (value) => {
        const entry = value as IndexEntry;
        return entry.type === part.type && typeof entry.id === 'string' && SHA256_HEX.test(entry.hash)
          ? entry
          : undefined;
      });
    }
  }

  /**
   * Reads the whole snapshot and checks it: every byte, tag, digest and count of every part and
   * index, and that each index entry has its record's id and recomputed content hash.
   * Memory stays flat (parts and indexes are read side by side, in the same order).
   * @throws SnapshotIntegrityError at the first problem
   */
  async verify(): Promise<void> {
    const volatile = new Set(this.manifest.volatileFields);
    for (const { type } of this.manifest.parts) {
      const index = this.readIndex(type);
      try {
        for await (const record of this.readPart(type)) {
          const entry = await index.next();
          if (
            entry.done ||
            entry.value.id !== record.id ||
            entry.value.hash !== contentHash(record.data, volatile)
          ) {
            throw new SnapshotIntegrityError(`index of "${type}" does not match record ${record.id}`);
          }
        }
        // Runs the index to its end, which checks its digest and count.
        if (!(await index.next()).done) {
          throw new SnapshotIntegrityError(`index of "${type}" has extra entries`);
        }
      } finally {
        await index.return(undefined);
      }
    }
  }

  #part(type: string): PartInfo {
    const part = this.manifest.parts.find((candidate) => candidate.type === type);
    if (part === undefined) throw new RangeError(`snapshot has no "${type}" part`);
    return part;
  }

  /** Lines of one stored object, parsed and checked by `accept`, and their count against `part.count`. */
  async *#readLines<T>(
    part: PartInfo,
    object: StoredObjectInfo,
    label: string,
    accept: (value: unknown) => T | undefined,
  ): AsyncGenerator<T> {
    const aad = objectAad(this.manifest.snapshotId, object.key);
    let count = 0;
    for await (const line of readEncryptedLines(
      this.store,
      this.root + object.key,
      this.dataKey,
      aad,
      object,
      label,
    )) {
      const value = accept(parseLine(line, label));
      if (value === undefined) {
        throw new SnapshotIntegrityError(`${label}: line ${count + 1} is not a valid entry`);
      }
      count += 1;
      yield value;
    }
    if (count !== part.count) {
      throw new SnapshotIntegrityError(`${label}: ${count} lines, the manifest says ${part.count}`);
    }
  }
}

function parseLine(line: string, label: string): unknown {
  try {
    return JSON.parse(line) as unknown;
  } catch (error) {
    throw new SnapshotIntegrityError(`${label}: a line is not JSON`, { cause: error });
  }
}
