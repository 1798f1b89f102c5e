import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';

import { KeyRing } from '@libs/crypto/key-ring.js';
import { FsObjectStore } from '@libs/object-store/fs-object-store.js';
import { ResourceRecord } from '@libs/records/resource-record.js';

import { IndexEntry } from './index-line.js';
import { IndexShardChanges, diffIndexShards } from './index-shard-diff.js';
import { IndexShardText } from './index-shard-text.js';
import { INDEX_SHARDS, indexShardOf } from './index-shards.js';
import { SnapshotIntegrityError } from './snapshot-errors.js';
import { partNames } from './snapshot-layout.js';
import { SnapshotReader } from './snapshot-reader.js';
import { SnapshotWriter } from './snapshot-writer.js';
import { OKTA_VOLATILE_FIELDS } from '@libs/providers/okta/okta-volatile-fields.js';

const keyRing = new KeyRing([{ kid: 'k1', key: Buffer.alloc(32, 0x11) }]);
const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

function user(n: number, title = 'Engineer'): ResourceRecord {
  const id = `00u${String(n).padStart(6, '0')}`;
  return {
    type: 'user',
    id,
    name: `user${n}@example.com`,
    data: {
      id,
      status: 'ACTIVE',
      lastLogin: '2026-11-01T10:00:00.000Z',
      profile: { title, bio: 'x'.repeat(400) },
    },
  };
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

/** Ids that fall in index shard `shard`, in order. */
function idsInShard(shard: number, count: number): string[] {
  const ids: string[] = [];
  for (let n = 0; ids.length < count; n += 1) if (indexShardOf(`id${n}`) === shard) ids.push(`id${n}`);
  return ids;
}

/** An index shard's text as the writer makes it. */
function shardText(shard: number, entries: Array<[id: string, hash: string, frame: number]>, frames = 4) {
  const text = entries.map(([id, hash, frame]) => `${JSON.stringify({ id, hash, frame })}\n`).join('');
  return new IndexShardText(Buffer.from(text, 'utf8'), {
    type: 'user',
    shard,
    count: entries.length,
    frames,
    label: 'index of "user" (shard test)',
  });
}

describe('diffIndexShards', () => {
  let dir: string;
  let store: FsObjectStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'index-shard-diff-spec-'));
    store = new FsObjectStore(dir);
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function snapshot(name: string, records: ResourceRecord[]): Promise<SnapshotReader> {
    const prefix = `teams/t1/users/u1/connections/c1/backups/${name}/`;
    const writer = await SnapshotWriter.create({
      store,
      prefix,
      keyRing,
      volatileFields: OKTA_VOLATILE_FIELDS,
    });
    await writer.writePart('user', records);
    await writer.finish({});
    return SnapshotReader.open({ store, prefix, keyRing });
  }

  async function allShards(from: SnapshotReader, to: SnapshotReader): Promise<IndexShardChanges> {
    const all: IndexShardChanges = { added: [], removed: [], modified: [] };
    for (let shard = 0; shard < INDEX_SHARDS; shard += 1) {
      const changes = diffIndexShards(
        await from.readIndexShardText('user', shard),
        await to.readIndexShardText('user', shard),
      );
      all.added.push(...changes.added);
      all.removed.push(...changes.removed);
      all.modified.push(...changes.modified);
    }
    return all;
  }

  async function entryOf(reader: SnapshotReader, id: string): Promise<IndexEntry | undefined> {
    return reader.findEntry('user', id);
  }

  it('finds the added, removed and modified records of two snapshots, and nothing else', async () => {
    const before = Array.from({ length: 2000 }, (_, n) => user(n));
    const after = before
      .map((record, n) => (n === 3 || n === 1500 ? user(n, 'Manager') : record))
      // A volatile field alone is no change.
      .map((record, n) => (n === 700 ? { ...record, data: { ...record.data, lastLogin: 'now' } } : record))
      .filter((_, n) => n !== 10);
    after.splice(42, 0, user(9000));
    const from = await snapshot('b1', before);
    const to = await snapshot('b2', after);

    const sut = await allShards(from, to);

    expect(sut.added).toEqual([await entryOf(to, user(9000).id)]);
    expect(sut.removed).toEqual([await entryOf(from, user(10).id)]);
    expect(sut.modified.map(({ from: entry }) => entry.id).sort()).toEqual([user(3).id, user(1500).id]);
    for (const { from: old, to: changed } of sut.modified) {
      expect(old).toEqual(await entryOf(from, old.id));
      expect(changed).toEqual(await entryOf(to, old.id));
      expect(changed.hash).not.toBe(old.hash);
    }
  });

  it('reports nothing between two snapshots of the same records, whatever their frames', async () => {
    const records = Array.from({ length: 1200 }, (_, n) => user(n));
    const from = await snapshot('b1', records);
    // One record more at the front moves every later record's frame; their entries still match.
    const to = await snapshot('b2', [user(5000), ...records]);

    const sut = await allShards(from, to);

    expect(sut.removed).toEqual([]);
    expect(sut.modified).toEqual([]);
    expect(sut.added.map((entry) => entry.id)).toEqual([user(5000).id]);
    const frames = async (reader: SnapshotReader) =>
      new Map((await collect(reader.readIndex('user'))).map((entry) => [entry.id, entry.frame]));
    const [framesBefore, framesAfter] = [await frames(from), await frames(to)];
    expect(records.filter(({ id }) => framesBefore.get(id) !== framesAfter.get(id)).length).toBeGreaterThan(
      0,
    );
  });

  it('treats a shard the writer never opened as empty', async () => {
    const from = await snapshot('b1', [user(1), user(2)]);
    const to = await snapshot('b2', []);

    const sut = await allShards(from, to);

    expect(sut.removed.map((entry) => entry.id).sort()).toEqual([user(1).id, user(2).id]);
    expect(sut.added).toEqual([]);
    expect((await to.readIndexShardText('user', indexShardOf(user(1).id))).count).toBe(0);
  });

  it('counts an id written twice once: its last line before, its first line after', () => {
    const [twice, once] = idsInShard(3, 2);

    const sut = diffIndexShards(
      shardText(3, [
        [twice, HASH_A, 0],
        [twice, HASH_B, 1],
        [once, HASH_A, 1],
      ]),
      shardText(3, [
        [twice, HASH_B, 1],
        [once, HASH_A, 2],
        [once, HASH_A, 3],
      ]),
    );

    expect(sut).toEqual({
      added: [{ type: 'user', id: once, hash: HASH_A, frame: 3 }],
      removed: [],
      modified: [],
    });
  });

  it('compares ids with escapes as written', () => {
    const [plain] = idsInShard(5, 1);
    let n = 0;
    while (indexShardOf(`odd"\\${n}`) !== 5) n += 1;
    const odd = `odd"\\${n}`;

    const sut = diffIndexShards(
      shardText(5, [
        [plain, HASH_A, 0],
        [odd, HASH_A, 0],
      ]),
      shardText(5, [
        [odd, HASH_B, 0],
        [plain, HASH_A, 0],
      ]),
    );

    expect(sut.modified).toEqual([
      {
        from: { type: 'user', id: odd, hash: HASH_A, frame: 0 },
        to: { type: 'user', id: odd, hash: HASH_B, frame: 0 },
      },
    ]);
  });
});

describe('SnapshotReader.readIndexShardText', () => {
  let dir: string;
  let store: FsObjectStore;
  const prefix = 'teams/t1/users/u1/connections/c1/backups/b1/';

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'index-shard-text-spec-'));
    store = new FsObjectStore(dir);
    const writer = await SnapshotWriter.create({
      store,
      prefix,
      keyRing,
      volatileFields: OKTA_VOLATILE_FIELDS,
    });
    await writer.writePart(
      'user',
      Array.from({ length: 300 }, (_, n) => user(n)),
    );
    await writer.finish({});
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses a shard with an altered, missing or extra byte', async () => {
    const shard = indexShardOf(user(0).id);
    const key = `${prefix}${partNames('user')?.indexShard(shard)}`;
    const chunks: Buffer[] = [];
    for await (const chunk of await store.get(key)) chunks.push(chunk as Buffer);
    const original = Buffer.concat(chunks);
    const flipped = Buffer.from(original);
    flipped[Math.floor(original.length / 2)] ^= 0x01;

    for (const damaged of [
      flipped,
      original.subarray(0, original.length - 1),
      Buffer.concat([original, Buffer.of(0)]),
    ]) {
      await writeFile(join(dir, key), damaged);
      const reader = await SnapshotReader.open({ store, prefix, keyRing });
      await expect(reader.readIndexShardText('user', shard)).rejects.toThrow(SnapshotIntegrityError);
    }
    await writeFile(join(dir, key), original);
    const reader = await SnapshotReader.open({ store, prefix, keyRing });
    expect((await reader.readIndexShardText('user', shard)).count).toBe(
      reader.manifest.parts[0].index.find((info) => info.shard === shard)?.count,
    );
  });
});

describe('IndexShardText', () => {
  const [id, other] = idsInShard(2, 2);
  const line = (entry: object) => `${JSON.stringify(entry)}\n`;
  const text = (lines: string, count = 1, frames = 4) =>
    new IndexShardText(Buffer.from(lines, 'utf8'), {
      type: 'user',
      shard: 2,
      count,
      frames,
      label: 'shard 2',
    });

  it.each([
    ['fewer lines than the manifest says', line({ id, hash: HASH_A, frame: 0 }), 2],
    ['more lines than the manifest says', line({ id, hash: HASH_A, frame: 0 }).repeat(2), 1],
    ['a last line without its newline', line({ id, hash: HASH_A, frame: 0 }).trimEnd(), 1],
    ['a line without a hash field', line({ id, digest: HASH_A, frame: 0 }), 1],
    ['a line without a frame number', line({ id, hash: HASH_A, frame: 'x' }), 1],
    ['a line with its fields in another order', line({ hash: HASH_A, id, frame: 0 }), 1],
    ['a hash of another length', line({ id, hash: `${HASH_A}0`, frame: 0 }), 1],
  ])('refuses %s', (_what, lines, count) => {
    expect(() => text(lines, count)).toThrow(SnapshotIntegrityError);
  });

  it.each([
    ['a frame the part does not have', line({ id, hash: HASH_A, frame: 4 })],
    ['an id of another shard', line({ id: idsInShard(3, 1)[0], hash: HASH_A, frame: 0 })],
    ['a hash that is not hex', line({ id, hash: 'z'.repeat(64), frame: 0 })],
  ])('refuses to give an entry with %s', (_what, lines) => {
    const sut = text(lines);

    expect(() => sut.entry(0)).toThrow(new SnapshotIntegrityError('shard 2: line 1 is not a valid entry'));
  });

  it('gives each line as an entry', () => {
    const sut = text(line({ id, hash: HASH_A, frame: 3 }) + line({ id: other, hash: HASH_B, frame: 0 }), 2);

    expect([sut.entry(0), sut.entry(1)]).toEqual([
      { type: 'user', id, hash: HASH_A, frame: 3 },
      { type: 'user', id: other, hash: HASH_B, frame: 0 },
    ]);
  });
});
