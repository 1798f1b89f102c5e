import { createHash } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';

import { decodeBase64Url, encodeBase64Url } from '@libs/crypto/base64url.js';
import { createDecryptStream, createEncryptStream } from '@libs/crypto/chunked-gcm-stream.js';
import { DecryptionError } from '@libs/crypto/crypto-errors.js';
import { WrappedKey } from '@libs/crypto/key-ring.js';
import { ObjectStore } from '@libs/object-store/object-store.js';
import { ObjectNotFoundError } from '@libs/object-store/object-store-errors.js';

import { SinkResult } from './encrypted-part-sink.js';
import { FrameInfo } from './framed-part-sink.js';
import { SnapshotIntegrityError, SnapshotNotFoundError } from './snapshot-errors.js';
import { MANIFEST_NAME, objectAad } from './snapshot-layout.js';

/** One encrypted object of a snapshot; `key` is relative to the snapshot prefix. */
export interface StoredObjectInfo extends SinkResult {
  key: string;
}

/** One shard of a part's content-hash index: NDJSON of `{ id, hash, frame }`, in record order. */
export interface IndexShardInfo extends StoredObjectInfo {
  shard: number;
  count: number;
  /** SHA-256 of the shard's plaintext: equal shards of two snapshots hold the same entries */
  entriesSha256: string;
}

/**
 * The records of one resource type: one object (`key`) of sealed frames of NDJSON ResourceRecord
 * lines, `count` records in all, and the content-hash index of those records in shards by record
 * id (`index-shards.ts`; shards with no entry are not written).
 */
export interface PartInfo extends StoredObjectInfo {
  type: string;
  count: number;
  frames: FrameInfo[];
  index: IndexShardInfo[];
}

/** What a finished snapshot holds; written last, so its presence means the snapshot is complete. */
export interface SnapshotManifest {
  /** 2: framed parts and sharded indexes */
  formatVersion: 2;
  snapshotId: string;
  /** ISO 8601, UTC */
  createdAt: string;
  /** the caller's own fields: backup id, connection id, provider, org URL... */
  meta: Record<string, unknown>;
  /** fields left out of the content hashes; hashes of two snapshots compare only if these match */
  volatileFields: string[];
  /** in the order written */
  parts: PartInfo[];
  /** records per resource type */
  counts: Record<string, number>;
  /** stored bytes of all parts and their indexes (the manifest itself not included) */
  totalStoredBytes: number;
}

const FORMAT = 'idp-backup-snapshot';
/** Far above any real manifest (a few KiB); keeps a hostile object from exhausting memory. */
const MAX_MANIFEST_BYTES = 4 * 1024 * 1024;

const byteCount = z.number().int().nonnegative();
const storedObjectSchema = z.object({
  key: z.string(),
  plainBytes: byteCount,
  storedBytes: byteCount,
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
});
const partInfoSchema = storedObjectSchema.extend({
  type: z.string(),
  count: byteCount,
  frames: z.array(z.object({ storedBytes: byteCount, records: byteCount })),
  index: z.array(
    storedObjectSchema.extend({
      shard: byteCount,
      count: byteCount,
      entriesSha256: z.string().regex(/^[0-9a-f]{64}$/),
    }),
  ),
});
const manifestSchema: z.ZodType<SnapshotManifest> = z.object({
  formatVersion: z.literal(2),
  snapshotId: z.string(),
  createdAt: z.string(),
  meta: z.record(z.string(), z.unknown()),
  volatileFields: z.array(z.string()),
  parts: z.array(partInfoSchema),
  counts: z.record(z.string(), byteCount),
  totalStoredBytes: byteCount,
});

/**
 * The stored manifest (`manifest.json`): a small JSON envelope whose wrapped data key and key id
 * are readable (they are needed to open it, and key rotation rewrites only them), around the
 * manifest itself, encrypted and authenticated under the snapshot's data key. Encrypted rather than
 * only signed because meta and counts say which org and how big it is.
 */
const envelopeSchema = z.object({
  format: z.literal(FORMAT),
  formatVersion: z.literal(1),
  snapshotId: z.string().uuid(),
  dataKey: z.object({ kid: z.string(), wrapped: z.string() }),
  /** base64url of the manifest JSON in the chunked AES-256-GCM format, aad `objectAad(id, MANIFEST_NAME)` */
  body: z.string(),
});
export type ManifestEnvelope = z.infer<typeof envelopeSchema>;

/**
 * Fingerprint of a snapshot: lowercase hex SHA-256 of the sealed manifest body. The body pins every
 * part's SHA-256, so this one value identifies all of the snapshot's content; it leaves out the
 * wrapped data key, so it survives master key rotation.
 */
function fingerprint(sealedBody: Buffer): string {
  return createHash('sha256').update(sealedBody).digest('hex');
}

/** @returns the bytes of `manifest.json` and the snapshot's fingerprint */
export async function sealManifest(
  manifest: SnapshotManifest,
  dataKey: Buffer,
  wrappedKey: WrappedKey,
): Promise<{ bytes: Buffer; sha256: string }> {
  const aad = objectAad(manifest.snapshotId, MANIFEST_NAME);
  const body = await transformBuffer(
    createEncryptStream(dataKey, aad),
    Buffer.from(JSON.stringify(manifest)),
  );
  return {
    bytes: serializeEnvelope({
      format: FORMAT,
      formatVersion: 1,
      snapshotId: manifest.snapshotId,
      dataKey: wrappedKey,
      body: encodeBase64Url(body),
    }),
    sha256: fingerprint(body),
  };
}

/** The bytes of `manifest.json` for an envelope (also used to re-wrap its data key). */
export function serializeEnvelope(envelope: ManifestEnvelope): Buffer {
  return Buffer.from(JSON.stringify(envelope));
}

/**
 * Runs an operation on the envelope's wrapped data key (unwrap, rewrap), reporting a key that opens
 * under no master key of the ring as a snapshot that cannot be opened.
 * @throws SnapshotIntegrityError with the crypto error (e.g. UnknownKeyIdError) as `cause`
 */
export function withDataKey<T>(operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error;
    throw new SnapshotIntegrityError(`cannot unwrap the snapshot's data key: ${error.message}`, {
      cause: error,
    });
  }
}

/**
 * Reads `manifest.json` under a snapshot root.
 * @throws SnapshotNotFoundError when there is none; SnapshotIntegrityError when it is oversized
 */
export async function readManifestObject(store: ObjectStore, root: string): Promise<Buffer> {
  let stream: Readable;
  try {
    stream = await store.get(root + MANIFEST_NAME);
  } catch (error) {
    if (error instanceof ObjectNotFoundError) throw new SnapshotNotFoundError(root);
    throw error;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    size += (chunk as Buffer).length;
    if (size > MAX_MANIFEST_BYTES) {
      stream.destroy();
      throw new SnapshotIntegrityError(`manifest under "${root}" is larger than ${MAX_MANIFEST_BYTES} bytes`);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** @throws SnapshotIntegrityError when the bytes are not a manifest envelope of a known version */
export function parseEnvelope(bytes: Buffer): ManifestEnvelope {
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (error) {
    throw new SnapshotIntegrityError('manifest is not JSON', { cause: error });
  }
  const parsed = envelopeSchema.safeParse(json);
  if (!parsed.success) {
    throw new SnapshotIntegrityError(`manifest envelope is malformed: ${z.prettifyError(parsed.error)}`);
  }
  return parsed.data;
}

/**
 * Decrypts and checks the manifest inside an envelope.
 * @returns the manifest and the snapshot's fingerprint (see `sealManifest`)
 * @throws SnapshotIntegrityError when the body does not authenticate under `dataKey` or is malformed
 */
export async function openManifest(
  envelope: ManifestEnvelope,
  dataKey: Buffer,
): Promise<{ manifest: SnapshotManifest; sha256: string }> {
  const sealed = decodeBase64Url(envelope.body);
  if (sealed === undefined) throw new SnapshotIntegrityError('manifest body is not base64url');
  let plaintext: Buffer;
  try {
    plaintext = await transformBuffer(
      createDecryptStream(dataKey, objectAad(envelope.snapshotId, MANIFEST_NAME)),
      sealed,
    );
  } catch (error) {
    if (!(error instanceof DecryptionError)) throw error;
    throw new SnapshotIntegrityError(`manifest does not authenticate: ${error.message}`, { cause: error });
  }
  // Authenticated, so a failure here is a writer bug or an unknown future layout, not tampering.
  const parsed = manifestSchema.safeParse(JSON.parse(plaintext.toString('utf8')));
  if (!parsed.success || parsed.data.snapshotId !== envelope.snapshotId) {
    throw new SnapshotIntegrityError('manifest content does not match this format version');
  }
  return { manifest: parsed.data, sha256: fingerprint(sealed) };
}

async function transformBuffer(transform: Transform, input: Buffer): Promise<Buffer> {
  const output: Buffer[] = [];
  await pipeline(Readable.from([input]), transform, async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) output.push(chunk);
  });
  return Buffer.concat(output);
}
