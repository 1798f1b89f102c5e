import {
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { Readable, Transform, pipeline } from 'node:stream';

import { assertRange } from './byte-range.js';
import { assertObjectKey, assertObjectPrefix } from './object-key.js';
import { ByteRange, ObjectEntry, ObjectStore } from './object-store.js';
import { ObjectNotFoundError, ObjectStoreUnavailableError } from './object-store-errors.js';

/** Where and how to reach the bucket. */
export interface S3ObjectStoreOptions {
  bucket: string;
  region: string;
  /** S3-compatible endpoint (MinIO, Ceph, s3rver): `http://host:port`; AWS when absent. */
  endpoint?: string;
  /** `https://endpoint/bucket/key` instead of `https://bucket.endpoint/key`; most S3-compatibles need it. */
  forcePathStyle?: boolean;
  /** Both or neither; when absent the AWS SDK's default chain applies (IAM role, web identity...). */
  accessKeyId?: string;
  secretAccessKey?: string;
  /** Key prefix inside the bucket, to share a bucket with other data (`idp-backup/`). */
  prefix?: string;
}

/** Multipart parts of 8 MiB, 4 in flight: a streamed put buffers at most 32 MiB (lib-storage). */
const PART_BYTES = 8 * 1024 * 1024;
const PARTS_IN_FLIGHT = 4;
/** DeleteObjects takes at most 1000 keys per request (Amazon S3 API Reference, DeleteObjects). */
const DELETE_BATCH = 1000;

/** What a server that does not serve ListObjectVersions answers it with (S3 "Error responses"). */
const NO_VERSION_LISTING = new Set(['NotImplemented', 'MethodNotAllowed']);

/** One version of a key for DeleteObjects; no VersionId deletes the current object only. */
interface ObjectVersion {
  key: string;
  versionId?: string;
}

/**
 * Objects in an S3 or S3-compatible bucket. Streams of unknown length go up as multipart uploads
 * (lib-storage `Upload`, bounded memory, aborted on failure so no partial object appears); listing
 * follows ListObjectsV2 continuation tokens; deletes go in DeleteObjects batches of 1000.
 * `deletePrefix` removes every version and delete marker, so a versioned bucket keeps nothing of a
 * deleted prefix.
 */
export class S3ObjectStore implements ObjectStore {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #root: string;
  /** False once the server refused ListObjectVersions as unserved (NO_VERSION_LISTING): it keeps no versions. */
  #versionsListed = true;

  /** @throws InvalidObjectKeyError for a bad `prefix`; Error when only one credential is given */
  constructor(options: S3ObjectStoreOptions) {
    const { accessKeyId, secretAccessKey } = options;
    if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
      throw new Error('S3 object store: give both accessKeyId and secretAccessKey, or neither');
    }
    this.#root = normalizeRoot(options.prefix ?? '');
    this.#bucket = options.bucket;
    this.#client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle,
      credentials: accessKeyId && secretAccessKey ? { accessKeyId, secretAccessKey } : undefined,
      // The SDK's default CRC checksums on every request are refused by several S3-compatible
      // servers; integrity is end to end anyway (snapshots carry SHA-256 and GCM tags).
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /** @throws ObjectStoreUnavailableError when S3 answers 5xx or cannot be reached, after the SDK's retries */
  async put(
    key: string,
    body: Readable | Buffer,
    options?: { contentType?: string },
  ): Promise<{ size: number }> {
    try {
      return await this.#put(key, body, options);
    } catch (error) {
      throw unavailable(error, `writing "${key}"`);
    }
  }

  async #put(
    key: string,
    body: Readable | Buffer,
    options?: { contentType?: string },
  ): Promise<{ size: number }> {
    const params = { Bucket: this.#bucket, Key: this.#objectKey(key), ContentType: options?.contentType };
    if (Buffer.isBuffer(body)) {
      await this.#client.send(new PutObjectCommand({ ...params, Body: body, ContentLength: body.length }));
      return { size: body.length };
    }
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    // pipeline, unlike pipe(), fails the upload when the source fails and destroys the source
    // when the upload fails; its own callback has nothing to add to upload.done().
    const counted = pipeline(body, counter, () => undefined);
    const upload = new Upload({
      client: this.#client,
      params: { ...params, Body: counted },
      partSize: PART_BYTES,
      queueSize: PARTS_IN_FLIGHT,
    });
    try {
      await upload.done();
    } catch (error) {
      counted.destroy();
      throw error;
    }
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    if (range !== undefined) assertRange(range);
    try {
      const { Body, ContentLength } = await this.#send(`reading "${key}"`, () =>
        this.#client.send(
          new GetObjectCommand({
            Bucket: this.#bucket,
            Key: this.#objectKey(key),
            Range: range && `bytes=${range.start}-${range.end}`,
          }),
        ),
      );
      if (!(Body instanceof Readable)) throw new Error(`S3 GetObject returned no stream for "${key}"`);
      // S3 cuts a range that runs past the end short instead of refusing it (RFC 9110 section 14.1.2).
      if (range !== undefined && ContentLength !== range.end - range.start + 1) {
        Body.destroy();
        throw new RangeError(`byte range ${range.start}-${range.end} is outside "${key}"`);
      }
      return Body;
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      if ((error as { name?: unknown }).name === 'InvalidRange') {
        throw new RangeError(`byte range ${range?.start}-${range?.end} is outside "${key}"`);
      }
      throw error;
    }
  }

  async head(key: string): Promise<{ size: number } | null> {
    try {
      const { ContentLength } = await this.#send(`reading "${key}"`, () =>
        this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: this.#objectKey(key) })),
      );
      return { size: ContentLength ?? 0 };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async *list(prefix: string): AsyncIterable<ObjectEntry> {
    assertObjectPrefix(prefix);
    let ContinuationToken: string | undefined;
    do {
      const page = await this.#send(`listing "${prefix}"`, () =>
        this.#client.send(
          new ListObjectsV2Command({ Bucket: this.#bucket, Prefix: this.#root + prefix, ContinuationToken }),
        ),
      );
      for (const { Key, Size } of page.Contents ?? []) {
        if (Key !== undefined) yield { key: Key.slice(this.#root.length), size: Size ?? 0 };
      }
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken !== undefined);
  }

  /**
   * Deletes every version and delete marker under `prefix` (ListObjectVersions, then DeleteObjects
   * naming each VersionId): in a versioned bucket a plain delete only stacks a delete marker on
   * the object and every earlier version stays readable ("Deleting object versions", Amazon S3
   * user guide). An unversioned bucket lists each object once, with version id `null`, which
   * deletes it. A server that does not serve ListObjectVersions (501 NotImplemented as stores
   * without versioning answer, or 405 MethodNotAllowed as s3rver does) keeps no versions, so its
   * current objects are all there is.
   * @returns how many objects (in a versioned bucket: versions and delete markers) were deleted
   */
  async deletePrefix(prefix: string): Promise<number> {
    assertObjectPrefix(prefix);
    if (this.#versionsListed) {
      try {
        return await this.#deleteBatches(this.#listVersions(prefix));
      } catch (error) {
        if (!NO_VERSION_LISTING.has(String((error as { name?: unknown }).name)))
          throw unavailable(error, `listing "${prefix}"`);
        this.#versionsListed = false;
      }
    }
    return this.#deleteBatches(this.#currentObjects(prefix));
  }

  async *#currentObjects(prefix: string): AsyncIterable<ObjectVersion> {
    for await (const { key } of this.list(prefix)) yield { key };
  }

  /** Every version and delete marker under `prefix`, paged by key and version-id markers. */
  async *#listVersions(prefix: string): AsyncIterable<ObjectVersion> {
    let KeyMarker: string | undefined;
    let VersionIdMarker: string | undefined;
    for (;;) {
      const page = await this.#client.send(
        new ListObjectVersionsCommand({
          Bucket: this.#bucket,
          Prefix: this.#root + prefix,
          KeyMarker,
          VersionIdMarker,
        }),
      );
      for (const { Key, VersionId } of [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])]) {
        if (Key !== undefined) yield { key: Key.slice(this.#root.length), versionId: VersionId };
      }
      if (!page.IsTruncated) return;
      KeyMarker = page.NextKeyMarker;
      VersionIdMarker = page.NextVersionIdMarker;
    }
  }

  /** Deletes `objects` in DeleteObjects batches. @returns how many */
  async #deleteBatches(objects: AsyncIterable<ObjectVersion>): Promise<number> {
    let deleted = 0;
    let batch: ObjectVersion[] = [];
    for await (const object of objects) {
      batch.push(object);
      if (batch.length === DELETE_BATCH) {
        deleted += await this.#deleteBatch(batch);
        batch = [];
      }
    }
    if (batch.length > 0) deleted += await this.#deleteBatch(batch);
    return deleted;
  }

  /**
   * Runs one call to S3; `doing` says what for in an ObjectStoreUnavailableError.
   * @throws ObjectStoreUnavailableError when S3 answers 5xx or cannot be reached, after the SDK's retries
   */
  async #send<Output>(doing: string, call: () => Promise<Output>): Promise<Output> {
    try {
      return await call();
    } catch (error) {
      throw unavailable(error, doing);
    }
  }

  /** Closes the client's sockets; the store is unusable afterwards. */
  destroy(): void {
    this.#client.destroy();
  }

  async #deleteBatch(objects: ObjectVersion[]): Promise<number> {
    const { Errors = [] } = await this.#send(
      `deleting "${objects[0].key}" and ${objects.length - 1} more`,
      () =>
        this.#client.send(
          new DeleteObjectsCommand({
            Bucket: this.#bucket,
            Delete: {
              Objects: objects.map(({ key, versionId }) => ({ Key: this.#root + key, VersionId: versionId })),
              Quiet: true,
            },
          }),
        ),
    );
    if (Errors.length > 0) {
      const [first] = Errors;
      throw new Error(
        `S3 DeleteObjects failed for ${Errors.length} of ${objects.length} keys: ${first.Key}: ${first.Code}`,
      );
    }
    return objects.length;
  }

  #objectKey(key: string): string {
    assertObjectKey(key);
    return this.#root + key;
  }
}

function normalizeRoot(prefix: string): string {
  const root = prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`;
  assertObjectPrefix(root);
  return root;
}

function isNotFound(error: unknown): boolean {
  return (
    error instanceof S3ServiceException &&
    (error.name === 'NoSuchKey' || error.$metadata.httpStatusCode === 404)
  );
}

/** Node's errors for a store that cannot be reached (connection refused, reset, timed out). */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTFOUND',
]);

/**
 * `error` as an ObjectStoreUnavailableError when S3 answered 5xx (500 InternalError, 503 SlowDown
 * or ServiceUnavailable: "Error responses", Amazon S3 API reference) or could not be reached,
 * after the SDK's own retries; else unchanged.
 */
function unavailable(error: unknown, doing: string): unknown {
  if (error instanceof S3ServiceException && (error.$metadata.httpStatusCode ?? 0) >= 500) {
    const attempts = error.$metadata.attempts ? ` after ${error.$metadata.attempts} attempts` : '';
    return new ObjectStoreUnavailableError(
      `S3 answered ${error.$metadata.httpStatusCode} ${error.name} ${doing}${attempts}`,
      { cause: error },
    );
  }
  const code = (error as NodeJS.ErrnoException).code;
  if (code && UNREACHABLE.has(code))
    return new ObjectStoreUnavailableError(`S3 could not be reached ${doing} (${code})`, {
      cause: error,
    });
  return error;
}
