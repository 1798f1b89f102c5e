/**
 * `buffer` with room for `bytes` more after its first `length`: itself when they fit, else a new
 * buffer of at least twice its size holding those `length` bytes. Gathering buffers grow so, and
 * live outside the JavaScript heap (never Node's shared pool, which a long-lived slice would pin).
 */
export function withRoom(buffer: Buffer, length: number, bytes: number): Buffer {
  if (length + bytes <= buffer.length) return buffer;
  const grown = Buffer.allocUnsafeSlow(Math.max(length + bytes, 2 * buffer.length));
  buffer.copy(grown, 0, 0, length);
  return grown;
}
