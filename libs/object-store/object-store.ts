import { Readable } from 'node:stream';

/** One object as listed: its key (relative to the store) and its size in bytes. */
export interface ObjectEntry {
  key: string;
  size: number;
}

/** Inclusive byte offsets within an object, 0-based. */
export interface ByteRange {
  start: number;
  end: number;
}

/**
 * A flat key -> bytes store. Keys are `/`-separated relative paths (see `object-key.ts` for the
 * rules every driver enforces). Writes are all-or-nothing: a failed or interrupted `put` leaves the
 * previous object, or none, under the key, never a partial one.
 */
export interface ObjectStore {
  /**
   * Stores `body` under `key`, replacing any object there. A Readable is consumed to its end and
   * may be of unknown length; memory stays bounded.
   * @returns the stored size in bytes
   * @throws InvalidObjectKeyError; the body stream's own error when it fails
   */
  put(key: string, body: Readable | Buffer, options?: { contentType?: string }): Promise<{ size: number }>;

  /**
   * Streams the object, or only the bytes `range.start` to `range.end` (inclusive, as an HTTP
   * Range, RFC 9110 section 14.1.2), for readers that seek (a snapshot frame).
   * @throws ObjectNotFoundError when there is no object under `key`; InvalidObjectKeyError;
   *   RangeError for a range that is empty or outside the object
   */
  get(key: string, range?: ByteRange): Promise<Readable>;

  /** @returns the object's size in bytes, or null when there is none */
  head(key: string): Promise<{ size: number } | null>;

  /**
   * Every object whose key starts with `prefix` (a plain string prefix, so `a/b` matches `a/b/c`
   * and `a/bc`; `''` lists everything), in no promised order.
   */
  list(prefix: string): AsyncIterable<ObjectEntry>;

  /** Deletes every object whose key starts with `prefix`. @returns how many were deleted */
  deletePrefix(prefix: string): Promise<number>;
}
