import { randomUUID } from 'node:crypto';

import { generateDataKey } from '@libs/crypto/data-key.js';
import { KeyRing, WrappedKey } from '@libs/crypto/key-ring.js';
import { ObjectStore } from '@libs/object-store/object-store.js';
import { ResourceRecord } from '@libs/records/resource-record.js';

import { contentHash } from './content-hash.js';
import { type EncodedRecords, assertRecord, isEncodedRecords, recordLine } from './encoded-records.js';
import { EncryptedPartSink } from './encrypted-part-sink.js';
import { FRAME_TEXT_BYTES } from './frame-codec.js';
import { FramedPartSink } from './framed-part-sink.js';
import { IndexShardWriter } from './index-shard-writer.js';
import { INDEX_GZIP_WINDOW_BITS } from './index-shards.js';
import { PartInfo, SnapshotManifest, sealManifest } from './snapshot-manifest.js';
import { SnapshotWriteError } from './snapshot-errors.js';
import { MANIFEST_NAME, objectAad, partNames, snapshotRoot } from './snapshot-layout.js';

export interface SnapshotWriterOptions {
  store: ObjectStore;
  /** where the snapshot goes, e.g. `teams/<t>/users/<u>/connections/<c>/backups/<b>/` */
  prefix: string;
  /** wraps the snapshot's data key under its active master key */
  keyRing: KeyRing;
  /** left out of content hashes: the provider's (its descriptor's `volatileFields`) */
  volatileFields: readonly string[];
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
 * Writes a snapshot (DESIGN section 5) under a fresh data key, streamed into the store: per
 * resource type, a part of NDJSON records in independently sealed frames (`gzip | AES-256-GCM`, so
 * one record can be read without the rest) and an index of their content hashes in shards by id
 * (`gzip | chunked AES-256-GCM`); then the manifest. Until `finish` succeeds there is no manifest, so an interrupted write
 * never reads as a snapshot (its objects are garbage for the caller to delete with the prefix).
 *
 * Parts of different types may be written at the same time (a backup collects types behind
 * different rate-limit buckets together); the manifest lists them in the order they were begun.
 * `finish` only once no part is being written. A failed `writePart` leaves the writer failed
 * (parts still being written then fail too): start a new snapshot.
 */
export class SnapshotWriter {
  readonly snapshotId = randomUUID();
  readonly #store: ObjectStore;
  readonly #root: string;
  readonly #dataKey: Buffer;
  readonly #wrappedKey: WrappedKey;
  /** Left out of content hashes, as the manifest lists them. */
  readonly volatileFields: readonly string[];
  readonly #volatileSet: ReadonlySet<string>;
  /** Begun parts in order, each undefined until written. */
  readonly #parts = new Map<string, PartInfo | undefined>();
  #state: 'ready' | 'finished' | 'failed' = 'ready';

  private constructor(options: SnapshotWriterOptions, root: string) {
    this.#store = options.store;
    this.#root = root;
    this.#dataKey = generateDataKey();
    this.#wrappedKey = options.keyRing.wrapKey(this.#dataKey);
    this.volatileFields = [...options.volatileFields];
    this.#volatileSet = new Set(this.volatileFields);
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
   * Streams `records` into the part for `type` (sealed frames of about FRAME_TEXT_BYTES) and into
   * its index shards; memory stays flat whatever their number.
   * @param type snake_case resource type, at most one part per type
   * @param records records, or records already encoded (`EncodedRecords`, hashed without this
   *   writer's volatile fields), in any mix
   * @returns the part as the manifest will list it
   * @throws SnapshotWriteError for a bad or repeated type (nothing written, the writer stays usable)
   * @throws SnapshotWriteError for a record of another type or shape, encoded records hashed
   *   without other volatile fields, or the records iterable's or
   *   the store's own error: the writer is then failed
   * @throws SnapshotWriteError when another part failed while this one was being written
   */
  async writePart(
    type: string,
    records: AsyncIterable<ResourceRecord | EncodedRecords> | Iterable<ResourceRecord | EncodedRecords>,
  ): Promise<PartInfo> {
    const names = partNames(type);
    if (names === undefined) throw new SnapshotWriteError(`resource type "${type}" is not snake_case`);
    if (this.#parts.has(type)) throw new SnapshotWriteError(`the "${type}" part is already written`);
    this.#assertUsable();
    this.#parts.set(type, undefined);
    const recordSink = new FramedPartSink(
      this.#store,
      this.#root + names.records,
      this.#dataKey,
      objectAad(this.snapshotId, names.records),
    );
    const shards = new IndexShardWriter((shard) => this.#indexShardSink(names.indexShard(shard)));
    try {
      let count = 0;
      let frame = 0;
      /** Counts a record; true when its frame is full. */
      const added = (): boolean => {
        count += 1;
        return recordSink.gatheredBytes >= FRAME_TEXT_BYTES;
      };
      const nextFrame = async (): Promise<void> => {
        await Promise.all([recordSink.endFrame(), shards.flush()]);
        frame += 1;
      };
      for await (const item of records) {
        this.#assertUsable();
        if (isEncodedRecords(item)) {
          this.#assertVolatileFields(item, type);
          const lines = Buffer.from(item.lines.buffer, item.lines.byteOffset, item.lines.byteLength);
          for (let index = 0, start = 0; index < item.ids.length; start = item.ends[index], index += 1) {
            recordSink.appendBytes(lines, start, item.ends[index]);
            shards.add(item.ids[index], item.hashes[index], frame);
            if (added()) await nextFrame();
          }
          continue;
        }
        assertRecord(item, type);
        recordSink.append(recordLine(item));
        shards.add(item.id, contentHash(item.data, this.#volatileSet), frame);
        if (added()) await nextFrame();
      }
      const [stored, index] = await Promise.all([recordSink.close(), shards.close()]);
      const part: PartInfo = {
        type,
        key: names.records,
        count,
        plainBytes: stored.plainBytes,
        storedBytes: stored.storedBytes,
        sha256: stored.sha256,
        frames: stored.frames,
        index: index.map((shard) => ({ ...shard, key: names.indexShard(shard.shard) })),
      };
      this.#assertUsable();
      this.#parts.set(type, part);
      return part;
    } catch (error) {
      recordSink.abort(error as Error);
      shards.abort(error as Error);
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
    this.#assertUsable();
    const parts = [...this.#parts.values()];
    if (parts.includes(undefined)) throw new SnapshotWriteError('a part is still being written');
    try {
      const manifest: SnapshotManifest = {
        formatVersion: 2,
        snapshotId: this.snapshotId,
        createdAt: new Date().toISOString(),
        meta,
        volatileFields: [...this.volatileFields],
        parts: parts as PartInfo[],
        counts: Object.fromEntries((parts as PartInfo[]).map((part) => [part.type, part.count])),
        totalStoredBytes: (parts as PartInfo[]).reduce(
          (sum, part) =>
            part.index.reduce((total, shard) => total + shard.storedBytes, sum + part.storedBytes),
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

  #assertUsable(): void {
    if (this.#state !== 'ready') {
      const why = { finished: 'it is finished', failed: 'an earlier write failed' };
      throw new SnapshotWriteError(`snapshot writer cannot be used: ${why[this.#state]}`);
    }
  }

  #assertVolatileFields(encoded: EncodedRecords, type: string): void {
    const fields = encoded.volatileFields;
    if (
      fields.length !== this.volatileFields.length ||
      fields.some((field) => !this.#volatileSet.has(field))
    ) {
      throw new SnapshotWriteError(
        `"${type}" records were hashed without other volatile fields than the snapshot's`,
      );
    }
  }

  #indexShardSink(name: string): EncryptedPartSink {
    return new EncryptedPartSink(
      this.#store,
      this.#root + name,
      this.#dataKey,
      objectAad(this.snapshotId, name),
      INDEX_GZIP_WINDOW_BITS,
    );
  }
}
