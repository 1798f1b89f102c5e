import { createHash } from 'node:crypto';
import { Readable, Transform, pipeline } from 'node:stream';
import { createGunzip } from 'node:zlib';

import { createDecryptStream } from '@libs/crypto/chunked-gcm-stream.js';
import { DecryptionError } from '@libs/crypto/crypto-errors.js';
import { ObjectStore } from '@libs/object-store/object-store.js';
import { ObjectNotFoundError } from '@libs/object-store/object-store-errors.js';

import { DigestStream } from './digest-stream.js';
import { ndjsonLines } from './ndjson-lines.js';
import { SinkResult } from './encrypted-part-sink.js';
import { SnapshotIntegrityError } from './snapshot-errors.js';

/**
 * Streams the lines of an object written by `EncryptedPartSink`: store -> SHA-256 -> chunked
 * AES-256-GCM decryption -> gunzip -> lines. Each 64 KiB chunk is authenticated before its lines
 * are given; the SHA-256 and sizes are compared with `expected` (from the manifest) at the end, so
 * a caller that stops early has only read authenticated data but not checked the whole object.
 * When `expected.plainSha256` is given, the SHA-256 of the decompressed text is checked too.
 *
 * @param label names the object in error messages (`part "user"`, `index`)
 * @throws SnapshotIntegrityError when the object is missing, altered, truncated or not as expected;
 *   the store's own errors (network, permissions) pass through unchanged
 */
export async function* readEncryptedLines(
  store: ObjectStore,
  key: string,
  dataKey: Buffer,
  aad: string,
  expected: SinkResult & { plainSha256?: string },
  label: string,
): AsyncGenerator<string> {
  let stored: Readable;
  try {
    stored = await store.get(key);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) {
      throw new SnapshotIntegrityError(`${label} is missing`, { cause: error });
    }
    throw error;
  }
  const digest = new DigestStream();
  let plainBytes = 0;
  const plainDigest = expected.plainSha256 === undefined ? undefined : createHash('sha256');
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      plainBytes += chunk.length;
      plainDigest?.update(chunk);
      done(null, chunk);
    },
  });
  // Any stage's error destroys the last stream with it, so it surfaces from the iteration below.
  const plain = pipeline(
    stored,
    digest,
    createDecryptStream(dataKey, aad),
    createGunzip(),
    counter,
    () => undefined,
  );
  let completed = false;
  try {
    yield* ndjsonLines(plain);
    completed = true;
  } catch (error) {
    throw asIntegrityError(error, label);
  } finally {
    // A caller that stops early must not leave the store's stream open.
    if (!completed) plain.destroy();
  }
  if (digest.bytes !== expected.storedBytes || digest.sha256 !== expected.sha256) {
    throw new SnapshotIntegrityError(`${label}: stored bytes do not match the manifest's size and SHA-256`);
  }
  if (plainBytes !== expected.plainBytes) {
    throw new SnapshotIntegrityError(
      `${label}: ${plainBytes} plaintext bytes, the manifest says ${expected.plainBytes}`,
    );
  }
  if (plainDigest !== undefined && plainDigest.digest('hex') !== expected.plainSha256) {
    throw new SnapshotIntegrityError(`${label}: plaintext does not match the manifest's digest`);
  }
}

/** Authentication and decompression failures mean altered data; anything else passes through. */
function asIntegrityError(error: unknown, label: string): unknown {
  const code = (error as { code?: unknown }).code;
  const isZlibError = typeof code === 'string' && code.startsWith('Z_');
  if (error instanceof DecryptionError || isZlibError) {
    return new SnapshotIntegrityError(`${label}: ${(error as Error).message}`, { cause: error });
  }
  return error;
}
