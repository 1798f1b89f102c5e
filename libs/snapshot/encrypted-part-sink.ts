import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

import { createEncryptStream } from '@libs/crypto/chunked-gcm-stream.js';
import { ObjectStore } from '@libs/object-store/object-store.js';

import { DigestStream } from './digest-stream.js';
import { GZIP_LEVEL } from './frame-codec.js';

/** What a finished encrypted object holds. */
export interface SinkResult {
  /** bytes of text written, before compression */
  plainBytes: number;
  /** bytes in the object store (gzip, then encrypted) */
  storedBytes: number;
  /** lowercase hex SHA-256 of the stored bytes */
  sha256: string;
}

/**
 * Text is gathered into writes of about 64 KiB: every write to the gzip stream is a separate job
 * on libuv's thread pool, and one job per 300-byte line makes writing ten times slower.
 */
const BATCH_BYTES = 64 * 1024;

/**
 * One encrypted object being written: UTF-8 text in, `gzip | chunked AES-256-GCM` out, streamed
 * into the object store while it is written. Memory is bounded by the stream buffers (and the
 * store's own upload buffer), whatever the object's size; `write` waits when the store falls
 * behind.
 */
export class EncryptedPartSink {
  readonly #input = new PassThrough();
  readonly #digest = new DigestStream();
  readonly #done: Promise<void>;
  #plainBytes = 0;
  #batch: Buffer[] = [];
  #batchLength = 0;

  /**
   * Starts the upload to `key`; nothing appears under it until {@link close} succeeds.
   * @param windowBits gzip window, 9 to 15 (zlib's `windowBits`): 2^windowBits bytes
   */
  constructor(store: ObjectStore, key: string, dataKey: Buffer, aad: string, windowBits: number) {
    const encoded = pipeline(
      this.#input,
      createGzip({ level: GZIP_LEVEL, windowBits }),
      createEncryptStream(dataKey, aad),
      this.#digest,
    );
    const stored = store
      .put(key, this.#digest, { contentType: 'application/octet-stream' })
      .catch((error) => {
        // A store that gave up stops reading; fail the writer's side too instead of leaving it waiting.
        this.#input.destroy(error as Error);
        throw error;
      });
    this.#done = Promise.allSettled([encoded, stored]).then(([encodeResult, storeResult]) => {
      // The encoding side's error is the first cause (an aborted source, a failed compressor).
      if (encodeResult.status === 'rejected') throw encodeResult.reason;
      if (storeResult.status === 'rejected') throw storeResult.reason;
    });
    // Observed by write() and close(); never an unhandled rejection in between.
    this.#done.catch(() => undefined);
  }

  /**
   * Appends UTF-8 text, which it keeps until written: the caller must not change it.
   * Resolves once the pipeline can take more. @throws the pipeline's error
   */
  async write(text: Buffer): Promise<void> {
    this.#batch.push(text);
    this.#batchLength += text.length;
    if (this.#batchLength >= BATCH_BYTES) await this.#flush();
  }

  /** Ends the object and waits until the store holds all of it. @throws the pipeline's or store's error */
  async close(): Promise<SinkResult> {
    await this.#flush();
    this.#input.end();
    await this.#done;
    return { plainBytes: this.#plainBytes, storedBytes: this.#digest.bytes, sha256: this.#digest.sha256 };
  }

  /** Stops the upload; the store keeps nothing under the key. */
  abort(reason: Error): void {
    this.#input.destroy(reason);
  }

  async #flush(): Promise<void> {
    if (this.#batch.length === 0) return;
    const bytes = Buffer.concat(this.#batch, this.#batchLength);
    this.#batch = [];
    this.#batchLength = 0;
    this.#plainBytes += bytes.length;
    if (this.#input.write(bytes)) return;
    // Whichever comes first: room for more, or the failure that means there never will be.
    await Promise.race([once(this.#input, 'drain'), this.#done]);
  }
}
