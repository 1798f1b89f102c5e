import { ByteRange } from './object-store.js';

/**
 * Checks a byte range before a ranged read: whole numbers, `0 <= start <= end`, and, when the
 * object's size is known, `end < size` (a range past the end would be cut short, RFC 9110
 * section 14.1.2, and a reader that seeks must never get fewer bytes than it asked for).
 * @throws RangeError naming the problem
 */
export function assertRange(range: ByteRange, size?: number): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`invalid byte range ${start}-${end}`);
  }
  if (size !== undefined && end >= size) {
    throw new RangeError(`byte range ${start}-${end} is outside an object of ${size} bytes`);
  }
}
