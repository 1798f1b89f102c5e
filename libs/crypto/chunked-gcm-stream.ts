import { randomBytes } from 'node:crypto';
import { Transform, TransformCallback } from 'node:stream';

import { KEY_BYTES, TAG_BYTES, gcmDecrypt, gcmEncrypt } from './aes-gcm.js';
import { DecryptionError } from './crypto-errors.js';

/*
 * Chunked AES-256-GCM for streams of any length, after the STREAM construction of Hoang,
 * Reyhanitabar, Rogaway and Vizár ("Online Authenticated-Encryption and its Nonce-Reuse
 * Misuse-Resistance", CRYPTO 2015), as Tink's streaming AEAD does it.
 *
 * Layout: header | chunk 0 | chunk 1 | ... | chunk n (final)
 * - header (9 bytes): format version 0x01, then an 8-byte random nonce prefix;
 * - chunk i: AES-256-GCM of 64 KiB of plaintext (the final chunk 0..64 KiB, so an empty input is one
 *   empty final chunk), followed by its 16-byte tag;
 * - nonce i (12 bytes, NIST SP 800-38D, section 8.2.1 deterministic construction): prefix | i as
 *   uint32 big-endian. Reordering or swapping chunks changes the nonce and fails the tag;
 * - AAD i: header | final flag (0x01 on the last chunk, else 0x00) | caller aad. A stream cut at a
 *   chunk boundary ends on a chunk not flagged final and fails; an altered header fails chunk 0.
 *
 * The nonce prefix is random per stream, so streams sharing a data key (the parts of one snapshot)
 * do not repeat nonces unless two 64-bit prefixes collide (negligible for a few dozen streams).
 * Memory stays at about two chunks whatever the input size; plaintext is released only after its
 * chunk's tag verified.
 */

/** Plaintext bytes per chunk (the last chunk holds 0 to this many). */
export const CHUNK_PLAINTEXT_BYTES = 64 * 1024;
const VERSION = 0x01;
const NONCE_PREFIX_BYTES = 8;
const HEADER_BYTES = 1 + NONCE_PREFIX_BYTES;
const CHUNK_CIPHERTEXT_BYTES = CHUNK_PLAINTEXT_BYTES + TAG_BYTES;
const MAX_CHUNKS = 2 ** 32;

/**
 * @param dataKey 32-byte AES-256 key (a per-snapshot data key, never a master key)
 * @param aad caller context bound to every chunk (e.g. snapshot id and part name); the same value
 *   must be given to {@link createDecryptStream}
 * @returns a Transform taking plaintext bytes and giving the layout above
 */
export function createEncryptStream(dataKey: Buffer, aad: string): Transform {
  return new EncryptStream(dataKey, aad);
}

/**
 * @returns a Transform taking the bytes of {@link createEncryptStream} and giving the plaintext; it
 *   errors with DecryptionError on a wrong key or aad, any altered, missing, reordered or extra byte
 */
export function createDecryptStream(dataKey: Buffer, aad: string): Transform {
  return new DecryptStream(dataKey, aad);
}

/** Collects incoming buffers so that whole chunks can be cut off the front. */
class ByteQueue {
  #parts: Buffer[] = [];
  length = 0;

  push(bytes: Buffer): void {
    this.#parts.push(bytes);
    this.length += bytes.length;
  }

  /** Removes and returns the first `n` bytes (n <= length), copying only when they span inputs. */
  take(n: number): Buffer {
    const pieces: Buffer[] = [];
    let needed = n;
    while (needed > 0) {
      const head = this.#parts[0];
      if (head.length <= needed) {
        pieces.push(head);
        this.#parts.shift();
        needed -= head.length;
      } else {
        pieces.push(head.subarray(0, needed));
        this.#parts[0] = head.subarray(needed);
        needed = 0;
      }
    }
    this.length -= n;
    return pieces.length === 1 ? pieces[0] : Buffer.concat(pieces, n);
  }
}

/** Per-stream nonce and AAD bookkeeping shared by both directions. */
class ChunkContext {
  #counter = 0;
  readonly #aad: Record<'final' | 'more', Buffer>;

  constructor(
    readonly key: Buffer,
    readonly header: Buffer,
    aad: string,
  ) {
    if (key.length !== KEY_BYTES) throw new RangeError(`data key must be ${KEY_BYTES} bytes`);
    const callerAad = Buffer.from(aad, 'utf8');
    this.#aad = {
      more: Buffer.concat([header, Buffer.of(0x00), callerAad]),
      final: Buffer.concat([header, Buffer.of(0x01), callerAad]),
    };
  }

  get index(): number {
    return this.#counter;
  }

  /** Nonce and AAD for the next chunk; each nonce is handed out once. */
  next(final: boolean): { iv: Buffer; aad: Buffer } {
    if (this.#counter >= MAX_CHUNKS) throw new RangeError('stream exceeds 2^32 chunks');
    const iv = Buffer.alloc(NONCE_PREFIX_BYTES + 4);
    this.header.copy(iv, 0, 1, HEADER_BYTES);
    iv.writeUInt32BE(this.#counter, NONCE_PREFIX_BYTES);
    this.#counter += 1;
    return { iv, aad: final ? this.#aad.final : this.#aad.more };
  }
}

class EncryptStream extends Transform {
  readonly #ctx: ChunkContext;
  readonly #pending = new ByteQueue();

  constructor(dataKey: Buffer, aad: string) {
    super();
    const header = Buffer.concat([Buffer.of(VERSION), randomBytes(NONCE_PREFIX_BYTES)]);
    this.#ctx = new ChunkContext(dataKey, header, aad);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#pending.push(chunk);
    // Strictly more than a chunk: the last chunk must wait for _flush to be flagged final.
    while (this.#pending.length > CHUNK_PLAINTEXT_BYTES) {
      this.#seal(this.#pending.take(CHUNK_PLAINTEXT_BYTES), false);
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    this.#seal(this.#pending.take(this.#pending.length), true);
    done();
  }

  #seal(plaintext: Buffer, final: boolean): void {
    if (this.#ctx.index === 0) this.push(this.#ctx.header);
    const { iv, aad } = this.#ctx.next(final);
    const { ciphertext, tag } = gcmEncrypt(this.#ctx.key, plaintext, aad, iv);
    this.push(Buffer.concat([ciphertext, tag]));
  }
}

class DecryptStream extends Transform {
  readonly #key: Buffer;
  readonly #aad: string;
  #ctx: ChunkContext | undefined;
  readonly #pending = new ByteQueue();

  constructor(dataKey: Buffer, aad: string) {
    super();
    if (dataKey.length !== KEY_BYTES) throw new RangeError(`data key must be ${KEY_BYTES} bytes`);
    this.#key = dataKey;
    this.#aad = aad;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#pending.push(chunk);
    try {
      if (this.#ctx === undefined && this.#pending.length >= HEADER_BYTES) {
        this.#ctx = this.#readHeader(this.#pending.take(HEADER_BYTES));
      }
      // A chunk followed by more bytes cannot be the final one.
      while (this.#ctx !== undefined && this.#pending.length > CHUNK_CIPHERTEXT_BYTES) {
        this.#open(this.#ctx, this.#pending.take(CHUNK_CIPHERTEXT_BYTES), false);
      }
      done();
    } catch (error) {
      done(error as Error);
    }
  }

  override _flush(done: TransformCallback): void {
    try {
      if (this.#ctx === undefined || this.#pending.length < TAG_BYTES) {
        throw new DecryptionError('encrypted stream is truncated: final chunk missing');
      }
      this.#open(this.#ctx, this.#pending.take(this.#pending.length), true);
      done();
    } catch (error) {
      done(error as Error);
    }
  }

  #readHeader(header: Buffer): ChunkContext {
    if (header[0] !== VERSION) {
      throw new DecryptionError(`encrypted stream has unknown format version ${header[0]}`);
    }
    return new ChunkContext(this.#key, header, this.#aad);
  }

  #open(ctx: ChunkContext, chunk: Buffer, final: boolean): void {
    const index = ctx.index;
    const { iv, aad } = ctx.next(final);
    const split = chunk.length - TAG_BYTES;
    const box = { iv, ciphertext: chunk.subarray(0, split), tag: chunk.subarray(split) };
    try {
      this.push(gcmDecrypt(ctx.key, box, aad));
    } catch (error) {
      if (!(error instanceof DecryptionError)) throw error;
      throw new DecryptionError(
        `encrypted stream chunk ${index}${final ? ' (last)' : ''} failed authentication: ` +
          'altered, reordered or truncated data, or wrong key or associated data',
      );
    }
  }
}
