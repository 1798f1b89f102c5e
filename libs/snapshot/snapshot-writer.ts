import { randomUUID } from 'node:crypto';

import { generateDataKey } from '@libs/crypto/data-key.js';
import { KeyRing, WrappedKey } from '@libs/crypto/key-ring.js';
import { ObjectStore } from '@libs/object-store/object-store.js';
import { ResourceRecord } from '@libs/providers/resource-types.js';

import { OKTA_VOLATILE_FIELDS, contentHash } from './content-hash.js';
import { EncryptedPartSink } from './encrypted-part-sink.js';
import { PartInfo, SnapshotManifest, sealManifest } from './snapshot-manifest.js';
import { SnapshotWriteError } from './snapshot-errors.js';
import { MANIFEST_NAME, objectAad, partNames, snapshotRoot } from './snapshot-layout.js';

/** Characters of NDJSON gathered before a write to the part's sink (memory stays bounded). */
const WRITE_BATCH_CHARS = 64 * 1024;

export interface SnapshotWriterOptions {
  store: ObjectStore;
  /** where the snapshot goes, e.g. `teams/<t>/users/<u>/connections/<c>/backups/<b>/` */
  prefix: string;
  /** wraps the snapshot's data key under its active master key */
  keyRing: KeyRing;
  /** left out of content hashes; default OKTA_VOLATILE_FIELDS */
  volatileFields?: readonly string[];
}

/** The manifest as written, with where it is and the SHA-256 of its stored bytes. */
export interface FinishedSnapshot extends SnapshotManifest {
  manifestKey: string;
  /**
   * The snapshot's fingerprint (SHA-256 of the sealed manifest body, which pins every part's
   * SHA-256). Give it to `SnapshotReader.open` to detect a snapshot replaced by another one, which
   * would otherwise authenticate under the same master key. Master key rotation leaves it unchanged.
   */
  sha256: string;
}

/**
 * Writes a snapshot (DESIGN section 5): per resource type, a part of NDJSON records and an index of
 * their content hashes, each `gzip | chunked AES-256-GCM` under a fresh data key, streamed into the
 * store; then the manifest. Until `finish` succeeds there is no manifest, so an interrupted write
 * never reads as a snapshot (its objects are garbage for the caller to delete with the prefix).
 *
 * One call at a time. A failed `writePart` leaves the writer failed: start a new snapshot.
 */
export class SnapshotWriter {
  readonly snapshotId = randomUUID();
  readonly #store: ObjectStore;
  readonly #root: string;
  readonly #dataKey: Buffer;
  readonly #wrappedKey: WrappedKey;
  readonly #volatileFields: readonly string[];
  readonly #volatileSet: ReadonlySet<string>;
  readonly #parts: PartInfo[] = [];
  #state: 'ready' | 'busy' | 'finished' | 'failed' = 'ready';

  private constructor(options: SnapshotWriterOptions, root: string) {
    this.#store = options.store;
    this.#root = root;
    this.#dataKey = generateDataKey();
    this.#wrappedKey = options.keyRing.wrapKey(this.#dataKey);
    this.#volatileFields = [...(options.volatileFields ?? OKTA_VOLATILE_FIELDS)];
    this.#volatileSet = new Set(this.#volatileFields);
  }

  /**
   * @throws SnapshotWriteError when a finished snapshot already exists under the prefix
   * @throws RangeError / InvalidObjectKeyError for an empty or invalid prefix
   */
  static async create(options: SnapshotWriterOptions): Promise<SnapshotWriter> {
    const root = snapshotRoot(options.prefix);
    if ((await options.store.head(root + MANIFEST_NAME)) !== null) {
      throw new SnapshotWriteError(`a finished snapshot already exists under "${root}"`);
    }
    return new SnapshotWriter(options, root);
  }

  /**
   * Streams `records` into the part for `type` and into its index; memory stays flat whatever
   * their number.
   * @param type snake_case resource type, at most one part per type
   * @returns the part as the manifest will list it
   * @throws SnapshotWriteError for a bad or repeated type (nothing written, the writer stays usable)
   * @throws SnapshotWriteError for a record of another type or shape, or the records iterable's or
   *   the store's own error: the writer is then failed
   */
  async writePart(
    type: string,
    records: AsyncIterable<ResourceRecord> | Iterable<ResourceRecord>,
  ): Promise<PartInfo> {
    const names = partNames(type);
    if (names === undefined) throw new SnapshotWriteError(`resource type "${type}" is not snake_case`);
    if (this.#parts.some((part) => part.type === type)) {
      throw new SnapshotWriteError(`the "${type}" part is already written`);
    }
    this.#begin();
    const recordSink = this.#sink(names.records);
    const indexSink = this.#sink(names.index);
    try {
      let count = 0;
      // Lines are handed to the sinks in batches: one await per record made the promise
      // machinery a quarter of the writer's time.
      let recordLines = '';
      let indexLines = '';
      for await (const record of records) {
        assertRecord(record, type);
        const { id, name, data } = record;
        recordLines += `${JSON.stringify({ type, id, name, data })}\n`;
        indexLines += `${JSON.stringify({ type, id, hash: contentHash(data, this.#volatileSet) })}\n`;
        count += 1;
        if (recordLines.length >= WRITE_BATCH_CHARS) {
          await Promise.all([recordSink.write(recordLines), indexSink.write(indexLines)]);
          recordLines = '';
          indexLines = '';
        }
      }
      if (recordLines) await Promise.all([recordSink.write(recordLines), indexSink.write(indexLines)]);
      const [stored, index] = await Promise.all([recordSink.close(), indexSink.close()]);
      const part: PartInfo = {
        type,
        key: names.records,
        count,
        ...stored,
        index: { key: names.index, ...index },
      };
      this.#parts.push(part);
      this.#state = 'ready';
      return part;
    } catch (error) {
      recordSink.abort(error as Error);
      indexSink.abort(error as Error);
      this.#state = 'failed';
      throw error;
    }
  }

  /**
   * Writes the manifest, which makes the snapshot complete.
   * @param meta caller's fields (backup id, connection id, provider, org URL...), JSON data
   * @throws SnapshotWriteError when a part failed or the snapshot is already finished
   */
  async finish(meta: Record<string, unknown>): Promise<FinishedSnapshot> {
    this.#begin();
    try {
      const manifest: SnapshotManifest = {
        formatVersion: 1,
        snapshotId: this.snapshotId,
        createdAt: new Date().toISOString(),
        meta,
        volatileFields: [...this.#volatileFields],
        parts: this.#parts,
        counts: Object.fromEntries(this.#parts.map((part) => [part.type, part.count])),
        totalStoredBytes: this.#parts.reduce(
          (sum, part) => sum + part.storedBytes + part.index.storedBytes,
          0,
        ),
      };
      const { bytes, sha256 } = await sealManifest(manifest, this.#dataKey, this.#wrappedKey);
      const manifestKey = this.#root + MANIFEST_NAME;
      await this.#store.put(manifestKey, bytes, { contentType: 'application/json' });
      this.#state = 'finished';
      this.#dataKey.fill(0);
      return { ...manifest, manifestKey, sha256 };
    } catch (error) {
      this.#state = 'failed';
      throw error;
    }
  }

  #begin(): void {
    if (this.#state !== 'ready') {
      const why = {
        busy: 'another call is still running',
        finished: 'it is finished',
        failed: 'an earlier write failed',
      };
      throw new SnapshotWriteError(`snapshot writer cannot be used: ${why[this.#state]}`);
    }
    this.#state = 'busy';
  }

  #sink(name: string): EncryptedPartSink {
    return new EncryptedPartSink(
      this.#store,
      this.#root + name,
      this.#dataKey,
      objectAad(this.snapshotId, name),
    );
  }
}

function assertRecord(record: ResourceRecord, type: string): void {
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
