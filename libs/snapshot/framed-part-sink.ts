import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import { pipeline } from 'node:stream/promises';

import { ObjectStore } from '@libs/object-store/object-store.js';

import { DigestStream } from './digest-stream.js';
import { SinkResult } from './encrypted-part-sink.js';
import { FRAME_TEXT_BYTES, frameAad, sealFrame } from './frame-codec.js';
import { withRoom } from './buffer-room.js';

const NEWLINE = 0x0a;

/** Room for a frame and the record that ends it; a larger record grows the buffer. */
const FRAME_BUFFER_BYTES = 2 * FRAME_TEXT_BYTES;

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
 * into the object store. Lines are gathered as UTF-8 bytes outside the JavaScript heap, so a frame
 * in the making is not copied from one young generation to the next by every scavenge (with the
 * service's 8 MB semi-space, a frame gathered as a string survived them all and was promoted). Frame
 * n+1 is gathered while frame n is compressed on the thread pool; the two alternate between a pair
 * of buffers. Nothing appears under the key until {@link close} succeeds.
 */
export class FramedPartSink {
  readonly #input = new PassThrough();
  readonly #digest = new DigestStream();
  readonly #stored: Promise<unknown>;
  readonly #frames: FrameInfo[] = [];
  readonly #dataKey: Buffer;
  readonly #aad: string;
  /** The buffer being filled, and the one the frame being sealed was read from. */
  #buffers: [Buffer, Buffer] = [
    Buffer.allocUnsafe(FRAME_BUFFER_BYTES),
    Buffer.allocUnsafe(FRAME_BUFFER_BYTES),
  ];
  #gatheredBytes = 0;
  #gatheredRecords = 0;
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

  /** UTF-8 bytes gathered for the next frame. */
  get gatheredBytes(): number {
    return this.#gatheredBytes;
  }

  /**
   * Adds one record's NDJSON line to the next frame and ends it with a newline (appended here:
   * a string joined with its newline would be copied once more to be written).
   */
  append(line: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit (a surrogate pair: 4 bytes for 2 units).
    const buffer = this.#room(3 * line.length + 1);
    this.#gatheredBytes += buffer.write(line, this.#gatheredBytes, 'utf8');
    this.#endLine(buffer);
  }

  /** Adds one record's NDJSON line, already UTF-8 (`source[start, end)`), as `append` does. */
  appendBytes(source: Buffer, start: number, end: number): void {
    const buffer = this.#room(end - start + 1);
    this.#gatheredBytes += source.copy(buffer, this.#gatheredBytes, start, end);
    this.#endLine(buffer);
  }

  /**
   * Seals what was gathered as the next frame. Resolves once the previous frame is in the stream,
   * so at most one frame is being sealed while the caller gathers the next. Nothing gathered:
   * nothing to do.
   * @throws the sealing's or the store's error
   */
  async endFrame(): Promise<void> {
    if (this.#gatheredRecords === 0) return;
    const records = this.#gatheredRecords;
    const plain = this.#buffers[0].subarray(0, this.#gatheredBytes);
    this.#gatheredBytes = 0;
    this.#gatheredRecords = 0;
    await this.#sealing;
    // The previous frame is sealed: its buffer takes the frame after this one.
    this.#buffers = [this.#buffers[1], this.#buffers[0]];
    this.#plainBytes += plain.length;
    const frame = this.#frames.length;
    const info: FrameInfo = { storedBytes: 0, records };
    this.#frames.push(info);
    this.#sealing = this.#seal(frame, plain, info);
    this.#sealing.catch(() => undefined);
  }

  /**
   * Seals what is still gathered, ends the object and waits until the store holds all of it.
   * @throws the sealing's or store's error
   */
  async close(): Promise<FramedSinkResult> {
    await this.endFrame();
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

  /** The buffer being filled, grown to take `bytes` more. */
  #room(bytes: number): Buffer {
    return (this.#buffers[0] = withRoom(this.#buffers[0], this.#gatheredBytes, bytes));
  }

  #endLine(buffer: Buffer): void {
    buffer[this.#gatheredBytes++] = NEWLINE;
    this.#gatheredRecords += 1;
  }

  async #seal(frame: number, plain: Buffer, info: FrameInfo): Promise<void> {
    const sealed = await sealFrame(this.#dataKey, frameAad(this.#aad, frame), plain);
    info.storedBytes = sealed.length;
    if (this.#input.write(sealed)) return;
    await Promise.race([once(this.#input, 'drain'), this.#stored]);
  }
}
