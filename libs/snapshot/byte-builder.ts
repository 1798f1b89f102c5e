/**
 * Bytes gathered piece by piece into one growing buffer (doubling), for text that would otherwise
 * be built as JavaScript strings: a backup's NDJSON lines and index entries, hundreds of
 * megabytes of them, stay outside the V8 heap and give its collector nothing to trace.
 */
export class ByteBuilder {
  #buffer: Buffer;
  #length = 0;

  /** @param capacity first size of the buffer, bytes */
  constructor(capacity = 4096) {
    this.#buffer = Buffer.allocUnsafe(Math.max(16, capacity));
  }

  /** Bytes gathered so far. */
  get length(): number {
    return this.#length;
  }

  /** Appends `text` as UTF-8. @returns the length after it */
  appendText(text: string): number {
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    this.#room(3 * text.length);
    this.#length += this.#buffer.write(text, this.#length, 'utf8');
    return this.#length;
  }

  /** Appends `source[start, end)`. @returns the length after it */
  appendBytes(source: Uint8Array, start = 0, end = source.length): number {
    this.#room(end - start);
    this.#buffer.set(source.subarray(start, end), this.#length);
    this.#length += end - start;
    return this.#length;
  }

  /**
   * The bytes gathered, copied into a buffer of their own (a view would carry the whole backing
   * buffer along, across threads or into a stream), and a fresh start.
   */
  take(): Buffer {
    const bytes = Buffer.allocUnsafeSlow(this.#length);
    this.#buffer.copy(bytes, 0, 0, this.#length);
    this.#length = 0;
    return bytes;
  }

  #room(bytes: number): void {
    if (this.#length + bytes <= this.#buffer.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.#length + bytes, 2 * this.#buffer.length));
    this.#buffer.copy(grown, 0, 0, this.#length);
    this.#buffer = grown;
  }
}
