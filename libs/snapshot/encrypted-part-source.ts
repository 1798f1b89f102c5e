import { createHash, hash } from 'node:crypto';
import { Readable, Transform, pipeline } from 'node:stream';
import { promisify } from 'node:util';
import { constants, createGunzip, gunzip } from 'node:zlib';

import { createDecryptStream } from '@libs/crypto/chunked-gcm-stream.js';
import { DecryptionError } from '@libs/crypto/crypto-errors.js';
import { ObjectStore } from '@libs/object-store/object-store.js';
import { ObjectNotFoundError } from '@libs/object-store/object-store-errors.js';

import { DigestStream } from './digest-stream.js';
import { ndjsonLines } from './ndjson-lines.js';
import { SinkResult } from './encrypted-part-sink.js';
import { SnapshotIntegrityError } from './snapshot-errors.js';

const gunzipAsync = promisify(gunzip);

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
 * The whole text of an object written by `EncryptedPartSink`, every check of
 * {@link readEncryptedLines} done, for small objects read whole (an index shard): the decrypted
 * gzip member is decompressed in one call into one buffer of the manifest's plaintext size, so
 * there is neither a string per line nor a buffer per 16 KiB of text.
 * @throws SnapshotIntegrityError as readEncryptedLines; the store's own errors pass through
 */
export async function readEncryptedText(store: ObjectStore, object: EncryptedObject): Promise<Buffer> {
  const { expected, label } = object;
  const stored = await getStored(store, object);
  const digest = new DigestStream();
  const compressed: Buffer[] = [];
  try {
    for await (const chunk of pipeline(
      stored,
      digest,
      createDecryptStream(object.dataKey, object.aad),
      () => undefined,
    ) as AsyncIterable<Buffer>) {
      compressed.push(chunk);
    }
  } catch (error) {
    throw asIntegrityError(error, label);
  }
  assertStored(digest, object);
  let text: Buffer;
  try {
    text = await gunzipAsync(Buffer.concat(compressed), {
      // One more byte than the text, so that zlib ends without allocating another chunk.
      chunkSize: Math.max(expected.plainBytes + 1, constants.Z_MIN_CHUNK),
      maxOutputLength: Math.max(expected.plainBytes, 1),
    });
  } catch (error) {
    throw new SnapshotIntegrityError(`${label}: does not decompress to the manifest's size`, {
      cause: error,
    });
  }
  assertPlain(text.length, expected.plainSha256 === undefined ? undefined : hash('sha256', text), object);
  return text;
}

async function* readPlainChunks(store: ObjectStore, object: EncryptedObject): AsyncGenerator<Buffer> {
  const stored = await getStored(store, object);
  const digest = new DigestStream();
  let plainBytes = 0;
  const plainDigest = object.expected.plainSha256 === undefined ? undefined : createHash('sha256');
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
    throw asIntegrityError(error, object.label);
  } finally {
    // A caller that stops early must not leave the store's stream open.
    if (!completed) plain.destroy();
  }
  assertStored(digest, object);
  assertPlain(plainBytes, plainDigest?.digest('hex'), object);
}

async function getStored(store: ObjectStore, object: EncryptedObject): Promise<Readable> {
  try {
    return await store.get(object.key);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) {
      throw new SnapshotIntegrityError(`${object.label} is missing`, { cause: error });
    }
    throw error;
  }
}

/** @throws SnapshotIntegrityError when the stored bytes are not the manifest's */
function assertStored(digest: DigestStream, { expected, label }: EncryptedObject): void {
  if (digest.bytes !== expected.storedBytes || digest.sha256 !== expected.sha256) {
    throw new SnapshotIntegrityError(`${label}: stored bytes do not match the manifest's size and SHA-256`);
  }
}

/** @throws SnapshotIntegrityError when the plaintext's size or (when expected) SHA-256 differ */
function assertPlain(bytes: number, sha256: string | undefined, { expected, label }: EncryptedObject): void {
  if (bytes !== expected.plainBytes) {
    throw new SnapshotIntegrityError(
      `${label}: ${bytes} plaintext bytes, the manifest says ${expected.plainBytes}`,
    );
  }
  if (sha256 !== expected.plainSha256) {
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
