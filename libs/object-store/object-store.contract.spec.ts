import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';

import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';

import { createObjectStore } from './create-object-store.js';
import { ObjectEntry, ObjectStore } from './object-store.js';
import { InvalidObjectKeyError, ObjectNotFoundError } from './object-store-errors.js';
import { S3ObjectStore } from './s3-object-store.js';
import { startS3rver, type RunningS3rver } from './testing/s3rver.js';

/** A driver under test: how to make a store, and how to clean up after it. */
interface DriverHarness {
  name: string;
  start(): Promise<{ store: ObjectStore; stop(): Promise<void> }>;
}

const BUCKET = 'snapshots';

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Listing order is not part of the contract (s3rver does not sort as S3 does). */
async function listSorted(store: ObjectStore, prefix: string): Promise<ObjectEntry[]> {
  return (await collect(store.list(prefix))).sort((a, b) => (a.key < b.key ? -1 : 1));
}

/** A stream of `mib` MiB of random bytes, made as it is read, and the SHA-256 of what it gave. */
function generated(mib: number): { stream: Readable; sha256: () => string } {
  const hash = createHash('sha256');
  async function* chunks() {
    for (let i = 0; i < mib; i += 1) {
      const chunk = randomBytes(1024 * 1024);
      hash.update(chunk);
      yield chunk;
    }
  }
  return { stream: Readable.from(chunks()), sha256: () => hash.digest('hex') };
}

/** A stream that gives some bytes, then fails as a dropped upstream connection would. */
function failingAfter(bytes: number): Readable {
  async function* chunks() {
    yield randomBytes(bytes);
    throw new Error('upstream went away');
  }
  return Readable.from(chunks());
}

/** The contract every ObjectStore driver meets, run once per driver. */
function describeObjectStoreContract(harness: DriverHarness): void {
  describe(`ObjectStore contract: ${harness.name}`, () => {
    let sut: ObjectStore;
    let stop: () => Promise<void>;
    let namespaces = 0;
    /** Each test works under its own prefix, so tests do not see each other's objects. */
    const ns = () => `t${(namespaces += 1)}/`;

    beforeAll(async () => {
      ({ store: sut, stop } = await harness.start());
    });

    afterAll(async () => {
      await stop();
    });

    it('stores a buffer and gives back the same bytes and size', async () => {
      const key = `${ns()}teams/a/manifest.json`;
      const body = Buffer.from('{"hello":"world"}');

      expect(await sut.put(key, body, { contentType: 'application/json' })).toEqual({ size: body.length });
      expect(await sut.head(key)).toEqual({ size: body.length });
      expect(await readAll(await sut.get(key))).toEqual(body);
    });

    it('stores a stream of unknown length', async () => {
      const key = `${ns()}part.bin`;
      const body = randomBytes(300_000);

      const { size } = await sut.put(key, Readable.from([body.subarray(0, 1000), body.subarray(1000)]));

      expect(size).toBe(body.length);
      // Buffer.equals: Jest's toEqual walks large buffers byte by byte and takes seconds.
      expect((await readAll(await sut.get(key))).equals(body)).toBe(true);
    });

    it('reads a byte range, inclusive at both ends, and refuses one past the end', async () => {
      const key = `${ns()}framed.bin`;
      const body = randomBytes(100_000);
      await sut.put(key, body);

      const middle = await readAll(await sut.get(key, { start: 65_000, end: 99_999 }));
      expect((await readAll(await sut.get(key, { start: 0, end: 1 }))).equals(body.subarray(0, 2))).toBe(
        true,
      );
      expect(middle.equals(body.subarray(65_000))).toBe(true);
      await expect(sut.get(key, { start: 10, end: 9 })).rejects.toThrow(RangeError);
      await expect(sut.get(key, { start: 99_000, end: 100_000 })).rejects.toThrow(RangeError);
    });

    it('stores empty objects, from a buffer and from a stream', async () => {
      const prefix = ns();

      expect(await sut.put(`${prefix}a`, Buffer.alloc(0))).toEqual({ size: 0 });
      expect(await sut.put(`${prefix}b`, Readable.from([]))).toEqual({ size: 0 });
      expect(await readAll(await sut.get(`${prefix}b`))).toHaveLength(0);
      expect(await sut.head(`${prefix}a`)).toEqual({ size: 0 });
    });

    it('replaces an existing object', async () => {
      const key = `${ns()}k`;
      await sut.put(key, Buffer.from('first version, longer'));

      await sut.put(key, Buffer.from('second'));

      expect((await readAll(await sut.get(key))).toString()).toBe('second');
    });

    it('round-trips a 20 MiB stream generated on the fly', async () => {
      const key = `${ns()}big.bin`;
      const source = generated(20);

      const { size } = await sut.put(key, source.stream);

      const hash = createHash('sha256');
      for await (const chunk of await sut.get(key)) hash.update(chunk as Buffer);
      expect(size).toBe(20 * 1024 * 1024);
      expect(await sut.head(key)).toEqual({ size });
      expect(hash.digest('hex')).toBe(source.sha256());
    });

    it('leaves no object when the body stream fails midway', async () => {
      const key = `${ns()}broken.bin`;

      await expect(sut.put(key, failingAfter(100_000))).rejects.toThrow('upstream went away');

      expect(await sut.head(key)).toBeNull();
      await expect(sut.get(key)).rejects.toThrow(ObjectNotFoundError);
    });

    it('keeps the previous object when a replacing write fails', async () => {
      const key = `${ns()}stable.bin`;
      await sut.put(key, Buffer.from('good'));

      await expect(sut.put(key, failingAfter(10))).rejects.toThrow('upstream went away');

      expect((await readAll(await sut.get(key))).toString()).toBe('good');
    });

    it('reports a missing object: get throws ObjectNotFoundError, head gives null', async () => {
      const key = `${ns()}missing/object`;

      await expect(sut.get(key)).rejects.toThrow(ObjectNotFoundError);
      await expect(sut.get(key)).rejects.toThrow(`no object under key "${key}"`);
      expect(await sut.head(key)).toBeNull();
      expect(await sut.head(`${key}/below`)).toBeNull();
    });

    it('lists by string prefix, with sizes', async () => {
      const prefix = ns();
      for (const [key, size] of [
        ['b/x', 3],
        ['a-c', 1],
        ['a/b', 2],
        ['a/a/deep', 4],
        ['ab', 5],
      ] as const) {
        await sut.put(prefix + key, Buffer.alloc(size));
      }

      expect(await listSorted(sut, prefix)).toEqual([
        { key: `${prefix}a-c`, size: 1 },
        { key: `${prefix}a/a/deep`, size: 4 },
        { key: `${prefix}a/b`, size: 2 },
        { key: `${prefix}ab`, size: 5 },
        { key: `${prefix}b/x`, size: 3 },
      ]);
      expect((await listSorted(sut, `${prefix}a/`)).map((o) => o.key)).toEqual([
        `${prefix}a/a/deep`,
        `${prefix}a/b`,
      ]);
      expect((await collect(sut.list(`${prefix}a`))).map((o) => o.key)).toHaveLength(4);
      expect(await collect(sut.list(`${prefix}zzz/`))).toEqual([]);
    });

    it('deletes by prefix and says how many objects went', async () => {
      const prefix = ns();
      for (const key of ['backups/b1/manifest.json', 'backups/b1/parts/user', 'backups/b12/x', 'keep']) {
        await sut.put(prefix + key, Buffer.from(key));
      }

      expect(await sut.deletePrefix(`${prefix}backups/b1/`)).toBe(2);

      expect((await listSorted(sut, prefix)).map((o) => o.key)).toEqual([
        `${prefix}backups/b12/x`,
        `${prefix}keep`,
      ]);
      await expect(sut.get(`${prefix}backups/b1/manifest.json`)).rejects.toThrow(ObjectNotFoundError);
      expect(await sut.deletePrefix(`${prefix}backups/b1/`)).toBe(0);
    });

    it('lists and deletes more than one page (1000) of objects', async () => {
      const prefix = ns();
      const keys = Array.from({ length: 1005 }, (_, i) => `${prefix}o/${String(i).padStart(4, '0')}`);
      for (let i = 0; i < keys.length; i += 50) {
        await Promise.all(keys.slice(i, i + 50).map((key) => sut.put(key, Buffer.from('x'))));
      }

      expect((await listSorted(sut, prefix)).map((o) => o.key)).toEqual(keys);
      expect(await sut.deletePrefix(prefix)).toBe(1005);
      expect(await listSorted(sut, prefix)).toEqual([]);
    });

    it.each([
      '../escape',
      'a/../../escape',
      '/etc/passwd',
      'a\\..\\b',
      'a//b',
      'a/',
      '',
      '.staging/x',
      'a/\u0000',
    ])('rejects key %j before touching storage', async (key) => {
      await expect(sut.put(key, Buffer.from('x'))).rejects.toThrow(InvalidObjectKeyError);
      await expect(sut.get(key)).rejects.toThrow(InvalidObjectKeyError);
      await expect(sut.head(key)).rejects.toThrow(InvalidObjectKeyError);
    });

    it.each(['../', '/', 'a//', 'a/../'])('rejects prefix %j', async (prefix) => {
      await expect(collect(sut.list(prefix))).rejects.toThrow(InvalidObjectKeyError);
      await expect(sut.deletePrefix(prefix)).rejects.toThrow(InvalidObjectKeyError);
    });
  });
}

let s3rver: RunningS3rver;
const tempDirs: string[] = [];
const s3Stores: S3ObjectStore[] = [];

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'object-store-spec-'));
  tempDirs.push(dir);
  return dir;
}

/** An S3 driver on the s3rver started for this file; `prefix` is the in-bucket root prefix. */
async function s3Store(prefix?: string): Promise<S3ObjectStore> {
  const store = (await createObjectStore({
    driver: 's3',
    bucket: BUCKET,
    region: 'us-east-1',
    endpoint: s3rver.endpoint,
    forcePathStyle: true,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    prefix,
  })) as S3ObjectStore;
  s3Stores.push(store);
  return store;
}

beforeAll(async () => {
  s3rver = await startS3rver(await tempDir(), BUCKET);
});

afterAll(async () => {
  for (const store of s3Stores) store.destroy();
  await s3rver.stop();
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

const noop = async () => undefined;

describeObjectStoreContract({
  name: 'filesystem',
  start: async () => ({
    store: await createObjectStore({ driver: 'fs', rootDir: await tempDir() }),
    stop: noop,
  }),
});
describeObjectStoreContract({
  name: 'S3 (s3rver)',
  start: async () => ({ store: await s3Store(), stop: noop }),
});
describeObjectStoreContract({
  name: 'S3 (s3rver) under a bucket prefix',
  start: async () => ({ store: await s3Store('tenant-root'), stop: noop }),
});

describe('S3ObjectStore prefix option', () => {
  it('keeps objects under the prefix inside the bucket and lists keys relative to it', async () => {
    const sut = await s3Store('shared/idp-backup');
    const bucketRoot = await s3Store();

    await sut.put('teams/t1/manifest.json', Buffer.from('{}'));

    expect(await collect(sut.list('teams/'))).toEqual([{ key: 'teams/t1/manifest.json', size: 2 }]);
    expect(await bucketRoot.head('shared/idp-backup/teams/t1/manifest.json')).toEqual({ size: 2 });
  });

  it('requires both credentials or neither', () => {
    expect(() => new S3ObjectStore({ bucket: BUCKET, region: 'us-east-1', accessKeyId: 'only-one' })).toThrow(
      /both accessKeyId and secretAccessKey/,
    );
  });
});
