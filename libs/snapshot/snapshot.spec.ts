import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { gunzipSync } from 'node:zlib';

import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';

import { UnknownKeyIdError } from '@libs/crypto/crypto-errors.js';
import { createDecryptStream } from '@libs/crypto/chunked-gcm-stream.js';
import { KeyRing, type WrappedKey } from '@libs/crypto/key-ring.js';
import { FsObjectStore } from '@libs/object-store/fs-object-store.js';
import { ResourceRecord } from '@libs/records/resource-record.js';

import { contentHash } from './content-hash.js';
import { INDEX_GZIP_WINDOW_BITS, indexShardOf } from './index-shards.js';
import { SnapshotIntegrityError, SnapshotNotFoundError, SnapshotWriteError } from './snapshot-errors.js';
import { rewrapSnapshotKey } from './snapshot-key-rotation.js';
import { objectAad, partNames } from './snapshot-layout.js';
import { SnapshotReader } from './snapshot-reader.js';
import { FinishedSnapshot, SnapshotWriter } from './snapshot-writer.js';
import { OKTA_VOLATILE_FIELDS } from '@libs/providers/okta/okta-volatile-fields.js';

const PREFIX = 'teams/t1/users/u1/connections/c1/backups/b1/';
const META = { backupId: 'b1', connectionId: 'c1', provider: 'okta', orgUrl: 'https://secret-org.okta.com' };
const oldKey = { kid: 'k2025', key: Buffer.alloc(32, 0x25) };
const newKey = { kid: 'k2026', key: Buffer.alloc(32, 0x26) };
const keyRing = new KeyRing([oldKey]);

const alice: ResourceRecord = {
  type: 'user',
  id: '00u1',
  name: 'alice.tamper-check@example.com',
  data: {
    id: '00u1',
    status: 'ACTIVE',
    lastLogin: '2026-11-01T10:00:00.000Z',
    profile: { login: 'alice.tamper-check@example.com', firstName: 'Alice' },
    _links: { self: { href: 'https://secret-org.okta.com/api/v1/users/00u1' } },
  },
};
const bob: ResourceRecord = {
  type: 'user',
  id: '00u2',
  name: 'bob@example.com',
  data: { id: '00u2', status: 'STAGED' },
};
const admins: ResourceRecord = {
  type: 'group',
  id: '00g1',
  name: 'Admins',
  data: { id: '00g1', profile: { name: 'Admins' } },
};

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function* slowly<T>(items: T[]): AsyncGenerator<T> {
  for (const item of items) {
    await new Promise((resolve) => setImmediate(resolve));
    yield item;
  }
}

describe('snapshot format', () => {
  let dir: string;
  let store: FsObjectStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'snapshot-spec-'));
    store = new FsObjectStore(dir);
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function readRaw(key: string): Promise<Buffer> {
    return Buffer.concat(await collect((await store.get(key)) as AsyncIterable<Buffer>));
  }

  async function rawObjects(): Promise<Map<string, Buffer>> {
    const objects = new Map<string, Buffer>();
    for await (const { key } of store.list(PREFIX)) objects.set(key, await readRaw(key));
    return objects;
  }

  async function writeSnapshot(prefix = PREFIX, ring = keyRing): Promise<FinishedSnapshot> {
    const sut = await SnapshotWriter.create({
      store,
      prefix,
      keyRing: ring,
      volatileFields: OKTA_VOLATILE_FIELDS,
    });
    await sut.writePart('user', slowly([alice, bob]));
    await sut.writePart('group', [admins]);
    await sut.writePart('app', []);
    return sut.finish(META);
  }

  /** A snapshot of 3,000 small users, which one frame holds: each index shard gets about 190. */
  async function writeUsersInOneFrame(): Promise<{ users: ResourceRecord[]; finished: FinishedSnapshot }> {
    const users = Array.from({ length: 3000 }, (_, n) => ({
      ...bob,
      id: `00u${n}`,
      data: { id: `00u${n}` },
    }));
    const writer = await SnapshotWriter.create({
      store,
      prefix: PREFIX,
      keyRing,
      volatileFields: OKTA_VOLATILE_FIELDS,
    });
    await writer.writePart('user', users);
    return { users, finished: await writer.finish(META) };
  }

  const open = (options: { prefix?: string; ring?: KeyRing; expectedSha256?: string } = {}) =>
    SnapshotReader.open({
      store,
      prefix: options.prefix ?? PREFIX,
      keyRing: options.ring ?? keyRing,
      ...options,
    });

  describe('SnapshotWriter and SnapshotReader', () => {
    it('round-trips records, part by part, and describes them in the manifest', async () => {
      const written = await writeSnapshot();

      const sut = await open();

      expect(await collect(sut.readPart('user'))).toEqual([alice, bob]);
      expect(await collect(sut.readPart('group'))).toEqual([admins]);
      expect(await collect(sut.readPart('app'))).toEqual([]);
      expect(sut.types).toEqual(['user', 'group', 'app']);
      expect(sut.keyId).toBe('k2025');
      expect(sut.sha256).toBe(written.sha256);
      const { manifestKey: _manifestKey, sha256: _sha256, ...manifest } = written;
      expect(sut.manifest).toEqual(manifest);
      expect(sut.manifest).toMatchObject({
        formatVersion: 2,
        meta: META,
        counts: { user: 2, group: 1, app: 0 },
        volatileFields: expect.arrayContaining(['_links', 'lastLogin']),
      });
    });

    it('indexes every record of a frame that holds thousands, each in its shard', async () => {
      const { users } = await writeUsersInOneFrame();

      const entries = await collect((await open()).readIndex('user'));

      const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
      expect(entries.sort(byId)).toEqual(
        users
          .map(({ id, data }) => ({
            type: 'user',
            id,
            hash: contentHash(data, OKTA_VOLATILE_FIELDS),
            frame: 0,
          }))
          .sort(byId),
      );
    });

    it('compresses index shards with a 2 KiB window, which inflates with no more', async () => {
      const { parts, snapshotId } = (await writeUsersInOneFrame()).finished;
      const envelope = JSON.parse((await readRaw(`${PREFIX}manifest.json`)).toString()) as {
        dataKey: WrappedKey;
      };
      const dataKey = keyRing.unwrapKey(envelope.dataKey);

      for (const shard of parts[0].index) {
        const decrypt = createDecryptStream(dataKey, objectAad(snapshotId, shard.key));
        const compressed = Buffer.concat(
          await collect(Readable.from([await readRaw(PREFIX + shard.key)]).pipe(decrypt)),
        );
        // zlib refuses a distance beyond its window ("invalid distance too far back").
        const text = gunzipSync(compressed, { windowBits: INDEX_GZIP_WINDOW_BITS }).toString();
        expect(text.split('\n').length - 1).toBe(shard.count);
      }
    });

    it('records sizes and SHA-256 of the stored bytes of every part and index', async () => {
      const { parts, totalStoredBytes, manifestKey } = await writeSnapshot();

      for (const part of parts) {
        for (const object of [part, ...part.index]) {
          const raw = await readRaw(PREFIX + object.key);
          expect(object.storedBytes).toBe(raw.length);
          expect(object.sha256).toBe(createHash('sha256').update(raw).digest('hex'));
        }
      }
      const partsBytes = parts
        .flatMap((part) => [part, ...part.index])
        .reduce((sum, object) => sum + object.storedBytes, 0);
      expect(totalStoredBytes).toBe(partsBytes);
      expect(manifestKey).toBe(`${PREFIX}manifest.json`);
      expect(parts[0]).toMatchObject({ type: 'user', key: 'parts/user.ndjson.gz.enc', count: 2 });
    });

    it('indexes each record by type, id, content hash and frame, in shards by id', async () => {
      await writeSnapshot();

      const sut = await open();

      const byId = (a: { id: string }, b: { id: string }) => a.id.localeCompare(b.id);
      expect((await collect(sut.readIndex())).sort(byId)).toEqual(
        [alice, bob, admins]
          .map(({ type, id, data }) => ({
            type,
            id,
            hash: contentHash(data, OKTA_VOLATILE_FIELDS),
            frame: 0,
          }))
          .sort(byId),
      );
      expect(await collect(sut.readIndexShard('user', indexShardOf(bob.id)))).toContainEqual(
        expect.objectContaining({ id: bob.id }),
      );
      expect((await collect(sut.readIndex('group'))).map((entry) => entry.id)).toEqual(['00g1']);
      await expect(sut.verify()).resolves.toBeUndefined();
    });

    it('stores no plaintext: not a login, not the org URL, not a field name', async () => {
      await writeSnapshot();

      const objects = await rawObjects();

      expect([...objects.keys()].sort()).toEqual(
        [
          ...[alice, bob, admins].map(({ type, id }) => partNames(type)?.indexShard(indexShardOf(id))),
          'manifest.json',
          'parts/app.ndjson.gz.enc',
          'parts/group.ndjson.gz.enc',
          'parts/user.ndjson.gz.enc',
        ]
          .map((name) => PREFIX + name)
          .sort(),
      );
      for (const bytes of objects.values()) {
        for (const secret of [
          'alice.tamper-check@example.com',
          'tamper-check',
          'secret-org',
          'firstName',
          '00u1',
        ]) {
          expect(bytes.includes(secret)).toBe(false);
        }
      }
    });

    it('leaves no manifest until finish, so an unfinished snapshot does not open', async () => {
      const sut = await SnapshotWriter.create({
        store,
        prefix: PREFIX,
        keyRing,
        volatileFields: OKTA_VOLATILE_FIELDS,
      });
      await sut.writePart('user', [alice]);

      expect(await store.head(`${PREFIX}manifest.json`)).toBeNull();
      await expect(open()).rejects.toThrow(SnapshotNotFoundError);
    });

    it('refuses a record of another type and fails the writer, leaving no part and no manifest', async () => {
      const sut = await SnapshotWriter.create({
        store,
        prefix: PREFIX,
        keyRing,
        volatileFields: OKTA_VOLATILE_FIELDS,
      });

      await expect(sut.writePart('user', [alice, admins])).rejects.toThrow(
        new SnapshotWriteError('a record of type "group" was given for the "user" part'),
      );

      await expect(sut.finish(META)).rejects.toThrow(/an earlier write failed/);
      expect(await rawObjects()).toEqual(new Map());
    });

    it('fails the writer when the record source fails midway', async () => {
      const sut = await SnapshotWriter.create({
        store,
        prefix: PREFIX,
        keyRing,
        volatileFields: OKTA_VOLATILE_FIELDS,
      });
      async function* failing() {
        yield alice;
        throw new Error('Okta answered 500');
      }

      await expect(sut.writePart('user', failing())).rejects.toThrow('Okta answered 500');

      await expect(sut.writePart('group', [admins])).rejects.toThrow(SnapshotWriteError);
      expect(await rawObjects()).toEqual(new Map());
    });

    it('writes parts at the same time and lists them in the order they were begun', async () => {
      const sut = await SnapshotWriter.create({
        store,
        prefix: PREFIX,
        keyRing,
        volatileFields: OKTA_VOLATILE_FIELDS,
      });

      const users = sut.writePart('user', slowly([alice, bob]));
      const groups = sut.writePart('group', [admins]);
      await expect(sut.finish(META)).rejects.toThrow(/still being written/);
      await Promise.all([groups, users]);
      await sut.finish(META);

      const reader = await open();
      expect(reader.types).toEqual(['user', 'group']);
      expect(await collect(reader.readPart('user'))).toEqual([alice, bob]);
      expect(await collect(reader.readPart('group'))).toEqual([admins]);
    });

    it('fails a part being written when another part fails', async () => {
      const sut = await SnapshotWriter.create({
        store,
        prefix: PREFIX,
        keyRing,
        volatileFields: OKTA_VOLATILE_FIELDS,
      });
      async function* failing() {
        yield admins;
        throw new Error('Okta answered 500');
      }

      const users = sut.writePart('user', slowly([alice, bob, alice]));
      await expect(sut.writePart('group', failing())).rejects.toThrow('Okta answered 500');

      await expect(users).rejects.toThrow(/an earlier write failed/);
      await expect(sut.finish(META)).rejects.toThrow(/an earlier write failed/);
    });

    it.each([
      ['a repeated type', 'user', /already written/],
      ['a type that is not snake_case', '../user', /not snake_case/],
    ])('refuses %s without failing the writer', async (_what, type, message) => {
      const sut = await SnapshotWriter.create({
        store,
        prefix: PREFIX,
        keyRing,
        volatileFields: OKTA_VOLATILE_FIELDS,
      });
      await sut.writePart('user', [alice]);

      await expect(sut.writePart(type, [])).rejects.toThrow(message);

      await sut.writePart('group', [admins]);
      expect((await sut.finish(META)).counts).toEqual({ user: 1, group: 1 });
    });

    it('refuses to write over a finished snapshot', async () => {
      await writeSnapshot();

      await expect(
        SnapshotWriter.create({ store, prefix: PREFIX, keyRing, volatileFields: OKTA_VOLATILE_FIELDS }),
      ).rejects.toThrow(/already exists/);
    });

    it('stops reading cleanly when the caller stops early', async () => {
      await writeSnapshot();
      const sut = await open();

      for await (const record of sut.readPart('user')) {
        expect(record.id).toBe('00u1');
        break;
      }

      expect(await collect(sut.readPart('user'))).toHaveLength(2);
    });

    it('names a missing part type', async () => {
      await writeSnapshot();
      const sut = await open();

      await expect(collect(sut.readPart('brand'))).rejects.toThrow(
        new RangeError('snapshot has no "brand" part'),
      );
    });
  });

  describe('frames: reading one record without its part', () => {
    const many = Array.from({ length: 3000 }, (_, n): ResourceRecord => ({
      type: 'user',
      id: `00u${n.toString().padStart(6, '0')}`,
      name: `user${n}@example.com`,
      data: { id: `00u${n}`, status: 'ACTIVE', profile: { bio: 'x'.repeat(900), n } },
    }));

    async function writeMany(): Promise<FinishedSnapshot> {
      const sut = await SnapshotWriter.create({
        store,
        prefix: PREFIX,
        keyRing,
        volatileFields: OKTA_VOLATILE_FIELDS,
      });
      await sut.writePart('user', many);
      return sut.finish(META);
    }

    it('splits a large part into frames and reads it back whole, in order', async () => {
      const { parts } = await writeMany();

      const sut = await open();

      expect(parts[0].frames.length).toBeGreaterThan(8);
      expect(parts[0].frames.reduce((sum, frame) => sum + frame.records, 0)).toBe(many.length);
      expect(await collect(sut.readPart('user'))).toEqual(many);
      await expect(sut.verify()).resolves.toBeUndefined();
    });

    it('grows a frame for a record larger than one, with multi-byte text, and reads it back', async () => {
      const huge: ResourceRecord = {
        type: 'user',
        id: '00uhuge',
        name: 'huge',
        data: { id: '00uhuge', notes: 'é€😀'.repeat(200_000) },
      };
      const records = [many[0], huge, many[1]];
      const writer = await SnapshotWriter.create({
        store,
        prefix: PREFIX,
        keyRing,
        volatileFields: OKTA_VOLATILE_FIELDS,
      });
      const part = await writer.writePart('user', records);
      await writer.finish(META);

      const sut = await open();

      expect(part.frames.map((frame) => frame.records)).toEqual([2, 1]);
      expect(await collect(sut.readPart('user'))).toEqual(records);
      expect(await sut.findEntry('user', '00uhuge')).toMatchObject({ frame: 0 });
    });

    it('finds any record by id through its index shard and frame, and nothing for an unknown id', async () => {
      const { parts } = await writeMany();
      const sut = await open();
      // The first and last record of every frame.
      let first = 0;
      const probes: number[] = [];
      for (const frame of parts[0].frames) {
        probes.push(first, first + frame.records - 1);
        first += frame.records;
      }

      for (const n of probes) {
        const found = await sut.findRecord('user', many[n].id);
        expect(found?.record).toEqual(many[n]);
        expect(found?.entry.hash).toBe(contentHash(many[n].data, OKTA_VOLATILE_FIELDS));
      }
      expect(await sut.findRecord('user', '00u-missing')).toBeUndefined();
      expect(await sut.findEntry('group', many[0].id)).toBeUndefined();
    });

    it('gives equal shard digests for equal entries, and a new digest only where a record changed', async () => {
      await writeMany();
      const first = await open();
      const otherPrefix = 'teams/t1/users/u1/connections/c1/backups/b2/';
      const second = await SnapshotWriter.create({
        store,
        prefix: otherPrefix,
        keyRing,
        volatileFields: OKTA_VOLATILE_FIELDS,
      });
      const edited = { ...many[7], data: { ...many[7].data, status: 'SUSPENDED' } };
      await second.writePart(
        'user',
        many.map((record, n) => (n === 7 ? edited : record)),
      );
      await second.finish(META);
      const changed = await open({ prefix: otherPrefix });

      for (let shard = 0; shard < 16; shard += 1) {
        const same = first.shardDigest('user', shard) === changed.shardDigest('user', shard);
        expect([shard, same]).toEqual([shard, shard !== indexShardOf(edited.id)]);
      }
      await expect(changed.verify()).resolves.toBeUndefined();
    });

    it('picks only the wanted records out of their frames, few or most', async () => {
      await writeMany();
      const sut = await open();
      const wanted = new Set([many[5].id, many[1500].id, many[2999].id]);
      const entries = (await collect(sut.readIndex('user'))).filter((entry) => wanted.has(entry.id));

      const records = await collect(sut.readRecords('user', entries));

      expect(records).toEqual([many[5], many[1500], many[2999]]);
      // Most frames wanted: the part is read front to back instead of frame by frame.
      const dense = (await collect(sut.readIndex('user'))).filter((_, n) => n % 2 === 0);
      expect((await collect(sut.readRecords('user', dense))).map((record) => record.id).sort()).toEqual(
        dense.map((entry) => entry.id).sort(),
      );
    });

    it('reads records by their position in the part, only from the frames that hold them', async () => {
      await writeMany();
      const sut = await open();

      const picked = await collect(sut.readPositions('user', [0, 5, 1500, 2999]));

      expect(picked).toEqual([0, 5, 1500, 2999].map((position) => ({ position, record: many[position] })));
      const every = await collect(sut.readPositions('user', [...many.keys()]));
      expect(every.map(({ record }) => record)).toEqual(many);
      await expect(collect(sut.readPositions('user', [5, 5]))).rejects.toThrow(RangeError);
      await expect(collect(sut.readPositions('user', [many.length]))).rejects.toThrow(RangeError);
    });

    it('detects an altered frame when reading it, and still reads the other frames', async () => {
      const { parts } = await writeMany();
      const key = `${PREFIX}parts/user.ndjson.gz.enc`;
      const original = await readRaw(key);
      const [frame0, frame1] = parts[0].frames;
      const damaged = Buffer.from(original);
      damaged[frame0.storedBytes + Math.floor(frame1.storedBytes / 2)] ^= 0x01;
      await writeFile(join(dir, key), damaged);
      const sut = await open();

      await expect(sut.findRecord('user', many[frame0.records].id)).rejects.toThrow(SnapshotIntegrityError);
      expect((await sut.findRecord('user', many[0].id))?.record).toEqual(many[0]);
      await expect(collect(sut.readPart('user'))).rejects.toThrow(SnapshotIntegrityError);
    });

    it('detects frames swapped within a part', async () => {
      const { parts } = await writeMany();
      const key = `${PREFIX}parts/user.ndjson.gz.enc`;
      const original = await readRaw(key);
      const [frame0, frame1] = parts[0].frames;
      // Same-sized frames could be swapped without changing any offset; the AAD's frame number
      // still refuses them. Frames of different sizes are refused by their offsets already.
      const swapped = Buffer.concat([
        original.subarray(frame0.storedBytes, frame0.storedBytes + frame1.storedBytes),
        original.subarray(0, frame0.storedBytes),
        original.subarray(frame0.storedBytes + frame1.storedBytes),
      ]);
      await writeFile(join(dir, key), swapped);
      const sut = await open();

      await expect(sut.findRecord('user', many[0].id)).rejects.toThrow(SnapshotIntegrityError);
    });
  });

  describe('tamper detection', () => {
    /** Rewrites an object's file in place (the store's put would fsync every time: slow in loops). */
    async function overwrite(key: string, bytes: Buffer): Promise<void> {
      await writeFile(join(dir, key), bytes);
    }

    const flipAt = (at: number) => (bytes: Buffer) => {
      const copy = Buffer.from(bytes);
      copy[at < 0 ? copy.length + at : at] ^= 0x01;
      return copy;
    };

    it('detects any single flipped bit in every byte of a part and of an index', async () => {
      await writeSnapshot();
      const aliceShard = partNames('user')?.indexShard(indexShardOf(alice.id)) ?? '';
      for (const name of ['parts/user.ndjson.gz.enc', aliceShard]) {
        const original = await readRaw(PREFIX + name);
        const reader = await open();
        const read = (): AsyncIterable<unknown> =>
          name.startsWith('parts/')
            ? reader.readPart('user')
            : reader.readIndexShard('user', indexShardOf(alice.id));
        for (let at = 0; at < original.length; at += 1) {
          await overwrite(PREFIX + name, flipAt(at)(original));
          await expect(collect(read())).rejects.toThrow(SnapshotIntegrityError);
        }
        await overwrite(PREFIX + name, original);
      }
      await expect((await open()).verify()).resolves.toBeUndefined();
    });

    it('detects an altered byte anywhere in the manifest', async () => {
      await writeSnapshot();
      const original = await readRaw(`${PREFIX}manifest.json`);
      // Every byte of the envelope and of both ends of the sealed body; in the middle of the body,
      // where GCM treats all bytes alike, every 16th, to keep the test fast.
      const bodyStart = original.indexOf('"body":"') + 8;
      const positions = [...original.keys()].filter(
        (at) => at < bodyStart + 64 || at > original.length - 64 || at % 16 === 0,
      );

      for (const at of positions) {
        await overwrite(`${PREFIX}manifest.json`, flipAt(at)(original));
        await expect(open()).rejects.toThrow(SnapshotIntegrityError);
      }
    });

    it('detects a truncated part, an emptied part, a deleted part and trailing bytes', async () => {
      await writeSnapshot();
      const key = `${PREFIX}parts/user.ndjson.gz.enc`;
      const original = await readRaw(key);
      const reader = await open();

      for (const damaged of [
        original.subarray(0, original.length - 16),
        Buffer.alloc(0),
        Buffer.concat([original, Buffer.of(0)]),
      ]) {
        await store.put(key, damaged);
        await expect(collect(reader.readPart('user'))).rejects.toThrow(SnapshotIntegrityError);
      }
      await store.deletePrefix(key);
      await expect(collect(reader.readPart('user'))).rejects.toThrow(/part "user" is missing/);
      await expect(reader.verify()).rejects.toThrow(SnapshotIntegrityError);
    });

    it('detects parts swapped between types, and indexes swapped with parts', async () => {
      await writeSnapshot();
      const user = await readRaw(`${PREFIX}parts/user.ndjson.gz.enc`);
      const group = await readRaw(`${PREFIX}parts/group.ndjson.gz.enc`);
      await store.put(`${PREFIX}parts/user.ndjson.gz.enc`, group);
      await store.put(`${PREFIX}parts/group.ndjson.gz.enc`, user);
      await store.put(`${PREFIX}${partNames('group')?.indexShard(indexShardOf(admins.id))}`, user);
      const reader = await open();

      await expect(collect(reader.readPart('user'))).rejects.toThrow(SnapshotIntegrityError);
      await expect(collect(reader.readPart('group'))).rejects.toThrow(SnapshotIntegrityError);
      await expect(collect(reader.readIndex('group'))).rejects.toThrow(SnapshotIntegrityError);
    });

    it('detects a part taken from another snapshot written under the same master key', async () => {
      const otherPrefix = 'teams/t1/users/u1/connections/c1/backups/b2/';
      await writeSnapshot();
      await writeSnapshot(otherPrefix);

      await store.put(
        `${PREFIX}parts/group.ndjson.gz.enc`,
        await readRaw(`${otherPrefix}parts/group.ndjson.gz.enc`),
      );

      await expect(collect((await open()).readPart('group'))).rejects.toThrow(SnapshotIntegrityError);
    });

    it('detects a whole snapshot replaced by another one when given the recorded fingerprint', async () => {
      const otherPrefix = 'teams/t1/users/u1/connections/c1/backups/b2/';
      const recorded = await writeSnapshot();
      await writeSnapshot(otherPrefix);
      await store.deletePrefix(PREFIX);
      for await (const { key } of store.list(otherPrefix)) {
        await store.put(PREFIX + key.slice(otherPrefix.length), await readRaw(key));
      }

      await expect(open()).resolves.toBeInstanceOf(SnapshotReader);
      await expect(open({ expectedSha256: recorded.sha256 })).rejects.toThrow(/not the one recorded/);
    });

    it('refuses a key ring without the snapshot master key, naming the key id', async () => {
      await writeSnapshot();

      const error = await open({ ring: new KeyRing([newKey]) }).catch((caught: unknown) => caught);

      expect(error).toBeInstanceOf(SnapshotIntegrityError);
      expect((error as Error).cause).toBeInstanceOf(UnknownKeyIdError);
      expect((error as Error).message).toMatch(/key id "k2025"/);
    });
  });

  describe('master key rotation', () => {
    it('re-wraps the data key only: parts untouched, fingerprint kept, old key no longer needed', async () => {
      const written = await writeSnapshot();
      const partsBefore = await rawObjects();
      const rotating = new KeyRing([newKey, oldKey]);

      const sut = await rewrapSnapshotKey({ store, prefix: PREFIX, keyRing: rotating });

      expect(sut).toEqual({ kid: 'k2026', rewritten: true });
      const reader = await open({ ring: new KeyRing([newKey]), expectedSha256: written.sha256 });
      expect(reader.keyId).toBe('k2026');
      await expect(reader.verify()).resolves.toBeUndefined();
      const partsAfter = await rawObjects();
      for (const [key, bytes] of partsBefore) {
        if (!key.endsWith('manifest.json')) expect(partsAfter.get(key)?.equals(bytes)).toBe(true);
      }
      expect(await rewrapSnapshotKey({ store, prefix: PREFIX, keyRing: rotating })).toEqual({
        kid: 'k2026',
        rewritten: false,
      });
    });
  });
});
