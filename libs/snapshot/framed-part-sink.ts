import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { ObjectStore } from '@libs/object-store/object-store.js';

import { DigestStream } from './digest-stream.js';
import { SinkResult } from './encrypted-part-sink.js';
import { frameAad, sealFrame } from './frame-codec.js';

/** One sealed frame of a part, as the manifest lists it. */
export interface FrameInfo {
  /** bytes in the store; a frame starts where the ones before it end */
  storedBytes: number;
  /** records (NDJSON lines) in the frame */
  records: number;
}

/** A finished framed object. */
export interface FramedSinkResult extends SinkResult {
  frames: FrameInfo[];
}

/**
 * A part being written as a sequence of independently sealed frames (`frame-codec.ts`), streamed
 * into the object store. Frame n+1 can be gathered while frame n is compressed on the thread pool;
 * memory holds about two frames. Nothing appears under the key until {@link close} succeeds.
 */
export class FramedPartSink {
  readonly #input = new PassThrough();
  readonly #digest = new DigestStream();
  readonly #stored: Promise<unknown>;
  readonly #frames: FrameInfo[] = [];
  readonly #dataKey: Buffer;
  readonly #aad: string;
  #plainBytes = 0;
  #sealing: Promise<void> = Promise.resolve();

  /** @param aad the part's associated data (`objectAad`); each frame adds its position */
  constructor(store: ObjectStore, key: string, dataKey: Buffer, aad: string) {
    this.#dataKey = dataKey;
    this.#aad = aad;
    // The store may attach its listeners late; the pipeline's own keep an abort from going unhandled.
    pipeline(this.#input, this.#digest).catch(() => undefined);
    this.#stored = store
      .put(key, this.#digest, { contentType: 'application/octet-stream' })
      .catch((error) => {
        this.#input.destroy(error as Error);
        throw error;
      });
    this.#stored.catch(() => undefined);
  }

  /**
   * Seals `text` (NDJSON of `records` lines) as the next frame. Resolves once the previous frame is
   * in the stream, so at most one frame is being sealed while the caller gathers the next.
   * @throws the sealing's or the store's error
   */
  async writeFrame(text: string, records: number): Promise<void> {
    await this.#sealing;
    const plain = Buffer.from(text, 'utf8');
    this.#plainBytes += plain.length;
    const frame = this.#frames.length;
    const info: FrameInfo = { storedBytes: 0, records };
    this.#frames.push(info);
    this.#sealing = this.#seal(frame, plain, info);
    this.#sealing.catch(() => undefined);
  }

  /** Ends the object and waits until the store holds all of it. @throws the sealing's or store's error */
  async close(): Promise<FramedSinkResult> {
    await this.#sealing;
    this.#input.end();
    await this.#stored;
    return {
      plainBytes: this.#plainBytes,
      storedBytes: this.#digest.bytes,
      sha256: this.#digest.sha256,
      frames: this.#frames,
    };
  }

  /** Stops the upload; the store keeps nothing under the key. */
  abort(reason: Error): void {
    this.#input.destroy(reason);
  }

  async #seal(frame: number, plain: Buffer, info: FrameInfo): Promise<void> {
    const sealed = await sealFrame(this.#dataKey, frameAad(this.#aad, frame), plain);
    info.storedBytes = sealed.length;
    if (this.#input.write(sealed)) return;
    await Promise.race([once(this.#input, 'drain'), this.#stored]);
  }
}
