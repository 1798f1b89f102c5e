import { type Hash, createHash } from 'node:crypto';

import { withRoom } from './buffer-room.js';
import { EncryptedPartSink, SinkResult } from './encrypted-part-sink.js';
import { INDEX_SHARDS, indexShardOf } from './index-shards.js';

/** A written index shard, without its key (the writer names it). */
export interface WrittenShard extends SinkResult {
  shard: number;
  count: number;
  /**
   * Lowercase hex SHA-256 of the shard's plaintext lines. Equal in two snapshots exactly when the
   * shard holds the same ids, content hashes and frames: diff skips such shards unread.
   */
  entriesSha256: string;
}

/**
 * A shard's first buffer, bytes: about 8 entries. It doubles as a frame's entries need (a frame of
 * app assignments puts about 35 in each shard); most parts hold a few records, and every part of a
 * backup is written at once.
 */
const FIRST_BUFFER_BYTES = 1024;

/**
 * Gathers a part's index entries (`{ id, hash, frame }` NDJSON lines) into their shards and streams
 * each shard into its own encrypted object, opened on its first entry: a part of three records
 * writes at most three shard objects. Entries are gathered as UTF-8 bytes outside the JavaScript
 * heap: gathered as strings until their frame was flushed, they lived through scavenges and were
 * promoted, a few hundred MB a backup of 100,000 users, which the old generation's collections
 * then marked.
 */
export class IndexShardWriter {
  readonly #sinks: (EncryptedPartSink | undefined)[] = new Array<EncryptedPartSink | undefined>(INDEX_SHARDS);
  /** Each shard's buffer, made on its first entry. */
  readonly #buffers: (Buffer | undefined)[] = new Array<Buffer | undefined>(INDEX_SHARDS);
  readonly #lengths: number[] = new Array<number>(INDEX_SHARDS).fill(0);
  readonly #counts: number[] = new Array<number>(INDEX_SHARDS).fill(0);
  readonly #digests: (Hash | undefined)[] = new Array<Hash | undefined>(INDEX_SHARDS);

  /** @param open opens the sink of one shard */
  constructor(private readonly open: (shard: number) => EncryptedPartSink) {}

  /** Adds the entry of record `id`, whose content hash is `hash`, stored in frame `frame`. */
  add(id: string, hash: string, frame: number): void {
    const shard = indexShardOf(id);
    // As JSON.stringify({ id, hash, frame }) writes it (a hash is hex, a frame an integer), without
    // an object per record.
    const line = `{"id":${JSON.stringify(id)},"hash":"${hash}","frame":${frame}}\n`;
    const length = this.#lengths[shard];
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    const buffer = withRoom(
      this.#buffers[shard] ?? Buffer.allocUnsafeSlow(FIRST_BUFFER_BYTES),
      length,
      3 * line.length,
    );
    this.#buffers[shard] = buffer;
    this.#lengths[shard] = length + buffer.write(line, length, 'utf8');
    this.#counts[shard] += 1;
  }

  /** Hands the gathered entries to the shards' sinks. @throws a sink's error */
  async flush(): Promise<void> {
    const writes: Promise<void>[] = [];
    this.#lengths.forEach((length, shard) => {
      if (length === 0) return;
      // A copy: the sink batches it while this buffer gathers the next frame's entries.
      const bytes = Buffer.from((this.#buffers[shard] as Buffer).subarray(0, length));
      this.#lengths[shard] = 0;
      this.#sinks[shard] ??= this.open(shard);
      (this.#digests[shard] ??= createHash('sha256')).update(bytes);
      writes.push(this.#sinks[shard].write(bytes));
    });
    await Promise.all(writes);
  }

  /** Ends every shard. @returns the shards written, in shard order */
  async close(): Promise<WrittenShard[]> {
    await this.flush();
    const written: WrittenShard[] = [];
    for (let shard = 0; shard < INDEX_SHARDS; shard += 1) {
      const sink = this.#sinks[shard];
      if (sink === undefined) continue;
      const entriesSha256 = (this.#digests[shard] as Hash).digest('hex');
      written.push({ shard, count: this.#counts[shard], entriesSha256, ...(await sink.close()) });
    }
    return written;
  }

  /** Stops every shard's upload. */
  abort(reason: Error): void {
    for (const sink of this.#sinks) sink?.abort(reason);
  }
}
