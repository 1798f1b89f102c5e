import { createHash } from 'node:crypto';
import { Transform, TransformCallback } from 'node:stream';

/** Passes bytes through unchanged, counting them and computing their SHA-256. */
export class DigestStream extends Transform {
  readonly #hash = createHash('sha256');
  #bytes = 0;
  #hex: string | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#hash.update(chunk);
    this.#bytes += chunk.length;
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    this.#hex = this.#hash.digest('hex');
    done();
  }

  get bytes(): number {
    return this.#bytes;
  }

  /** Lowercase hex SHA-256 of everything that passed. @throws Error before the stream has ended */
  get sha256(): string {
    if (this.#hex === undefined) throw new Error('digest read before the stream ended');
    return this.#hex;
  }
}
