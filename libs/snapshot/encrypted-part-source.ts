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

/** Where an object written by `EncryptedPartSink` is, how to open it and what the manifest says of it. */
export interface EncryptedObject {
  key: string;
  dataKey: Buffer;
  aad: string;
  /** from the manifest; when `plainSha256` is given, the SHA-256 of the decompressed text is checked too */
  expected: SinkResult & { plainSha256?: string };
  /** names the object in error messages (`part "user"`, `index`) */
  label: string;
}

/**
 * Streams the lines of an object written by `EncryptedPartSink`: store -> SHA-256 -> chunked
 * AES-256-GCM decryption -> gunzip -> lines. Each 64 KiB chunk is authenticated before its lines
 * are given; the SHA-256 and sizes are compared with the manifest at the end, so a caller that
 * stops early has only read authenticated data but not checked the whole object.
 * @throws SnapshotIntegrityError when the object is missing, altered, truncated or not as expected;
 *   the store's own errors (network, permissions) pass through unchanged
 */
export function readEncryptedLines(store: ObjectStore, object: EncryptedObject): AsyncGenerator<string> {
  return ndjsonLines(readPlainChunks(store, object));
}

/**
 * The whole text of an object written by `EncryptedPartSink`, in one buffer of the manifest's
 * plaintext size, every check of {@link readEncryptedLines} done: for small objects read whole
 * (an index shard), without a string per line.
 * @throws SnapshotIntegrityError as readEncryptedLines; the store's own errors pass through
 */
export async function readEncryptedText(store: ObjectStore, object: EncryptedObject): Promise<Buffer> {
  const text = Buffer.allocUnsafe(object.expected.plainBytes);
  let filled = 0;
  for await (const chunk of readPlainChunks(store, object)) {
    // More bytes than the manifest says: the end-of-stream check would refuse them anyway.
    if (filled + chunk.length > text.length) {
      throw new SnapshotIntegrityError(
        `${object.label}: more plaintext bytes than the manifest's ${object.expected.plainBytes}`,
      );
    }
    filled += chunk.copy(text, filled);
  }
  return text;
}

async function* readPlainChunks(store: ObjectStore, object: EncryptedObject): AsyncGenerator<Buffer> {
  const { expected, label } = object;
  let stored: Readable;
  try {
    stored = await store.get(object.key);
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
    createDecryptStream(object.dataKey, object.aad),
    createGunzip(),
    counter,
    () => undefined,
  );
  let completed = false;
  try {
    yield* plain as AsyncIterable<Buffer>;
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
