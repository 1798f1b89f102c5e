import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';

import { KeyRing } from '@libs/crypto/key-ring.js';
import { FsObjectStore } from '@libs/object-store/fs-object-store.js';
import { ResourceRecord } from '@libs/records/resource-record.js';

import { OKTA_VOLATILE_FIELDS } from '@libs/providers/okta/okta-volatile-fields.js';
import { encodeRecords, keepRecords } from './encoded-records.js';
import { FRAME_TEXT_BYTES } from './frame-codec.js';
import { SnapshotWriteError } from './snapshot-errors.js';
import { SnapshotReader } from './snapshot-reader.js';
import { SnapshotWriter } from './snapshot-writer.js';

const keyRing = new KeyRing([{ kid: 'k1', key: Buffer.alloc(32, 0x31) }]);

/** App assignments of about 1 KB each, with non-ASCII names and volatile fields. */
function assignments(count: number, from = 0): ResourceRecord[] {
  return Array.from({ length: count }, (_, index) => {
    const n = from + index;
    return {
      type: 'app_user_assignment',
      id: `0oa1:00u${n}`,
      name: `Zoë Łukasiewicz ${n} 👩‍💻`,
      data: {
        id: `00u${n}`,
        scope: 'USER',
        status: n % 3 === 0 ? 'PROVISIONED' : 'ACTIVE',
        lastUpdated: `2026-11-${String((n % 28) + 1).padStart(2, '0')}T00:00:00.000Z`,
        profile: { email: `user${n}@example.com`, note: 'ü'.repeat(400 + (n % 200)) },
        _links: { user: { href: `https://acme.okta.com/api/v1/users/00u${n}` } },
      },
    };
  });
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('encoded records (records encoded away from the writer, as worker threads do)', () => {
  let dir: string;
  let store: FsObjectStore;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'encoded-records-spec-'));
    store = new FsObjectStore(dir);
  });

  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function write(
    prefix: string,
    items: Iterable<ResourceRecord | ReturnType<typeof encodeRecords>>,
  ): Promise<SnapshotReader> {
    const writer = await SnapshotWriter.create({
      store,
      prefix,
      keyRing,
      volatileFields: OKTA_VOLATILE_FIELDS,
    });
    await writer.writePart('app_user_assignment', items);
    await writer.finish({});
    return SnapshotReader.open({ store, prefix, keyRing });
  }

  it('stores the same records, frames and index as records given one by one', async () => {
    // Enough records for several frames, so that frames end inside a batch.
    const records = assignments(1200);
    expect(records.reduce((sum, each) => sum + JSON.stringify(each).length, 0)).toBeGreaterThan(
      3 * FRAME_TEXT_BYTES,
    );
    const batches = [0, 500, 1000].map((start) =>
      encodeRecords('app_user_assignment', records.slice(start, start + 500), OKTA_VOLATILE_FIELDS),
    );

    const plain = await write('teams/t/plain/', records);
    // A mix: a batch, single records, then batches again.
    const mixed = await write('teams/t/mixed/', [batches[0], ...records.slice(500, 1000), batches[2]]);
    const encoded = await write('teams/t/encoded/', batches);

    const plainPart = plain.manifest.parts[0];
    expect(plainPart.frames.length).toBeGreaterThan(2);
    for (const sut of [mixed, encoded]) {
      expect(await collect(sut.readPart('app_user_assignment'))).toEqual(records);
      expect(await collect(sut.readIndex('app_user_assignment'))).toEqual(
        await collect(plain.readIndex('app_user_assignment')),
      );
      const part = sut.manifest.parts[0];
      expect(part.frames).toEqual(plainPart.frames);
      expect(part.plainBytes).toBe(plainPart.plainBytes);
      expect(part.index.map((shard) => shard.entriesSha256)).toEqual(
        plainPart.index.map((shard) => shard.entriesSha256),
      );
      await expect(sut.verify()).resolves.toBeUndefined();
    }
  });

  it("writes the provider's own text of a record's data when given, and serializes the others", () => {
    // Over 1 KB of UTF-8 each, more than the encoding first sets aside per record.
    const records = assignments(3);
    const texts = records.map((record) => new TextEncoder().encode(JSON.stringify(record.data)));
    const spaced = new TextEncoder().encode(JSON.stringify(records[2].data, null, ' ').replaceAll('\n', ''));

    const same = encodeRecords('app_user_assignment', records, OKTA_VOLATILE_FIELDS, (i) =>
      i === 1 ? undefined : texts[i],
    );
    const sut = encodeRecords('app_user_assignment', records, OKTA_VOLATILE_FIELDS, (i) =>
      i === 2 ? spaced : undefined,
    );

    expect(same).toEqual(encodeRecords('app_user_assignment', records, OKTA_VOLATILE_FIELDS));
    const last = new TextDecoder().decode(sut.lines.subarray(sut.ends[1]));
    expect(last).toBe(
      `{"type":"app_user_assignment","id":"0oa1:00u2","name":${JSON.stringify(records[2].name)},"data":${new TextDecoder().decode(spaced)}}`,
    );
    expect(JSON.parse(last)).toEqual(records[2]);
    expect(sut.hashes).toEqual(same.hashes);
  });

  it('keeps the records asked for, in order, and the same encoding when all are kept', () => {
    const records = assignments(5);
    const sut = encodeRecords('app_user_assignment', records, OKTA_VOLATILE_FIELDS);
    const asked: string[] = [];

    const kept = keepRecords(sut, (id) => asked.push(id) > 0 && !id.endsWith('1') && !id.endsWith('3'));

    expect(asked).toEqual(records.map((record) => record.id));
    const expected = encodeRecords(
      'app_user_assignment',
      [records[0], records[2], records[4]],
      OKTA_VOLATILE_FIELDS,
    );
    expect(kept).toEqual(expected);
    expect(keepRecords(sut, () => true)).toBe(sut);
    expect(keepRecords(sut, () => false)).toMatchObject({ ids: [], hashes: [], ends: new Uint32Array(0) });
  });

  it('refuses records hashed without other volatile fields, and leaves no snapshot', async () => {
    const writer = await SnapshotWriter.create({
      store,
      prefix: 'teams/t/other/',
      keyRing,
      volatileFields: OKTA_VOLATILE_FIELDS,
    });
    const batch = encodeRecords('app_user_assignment', assignments(2), ['_links']);

    await expect(writer.writePart('app_user_assignment', [batch])).rejects.toThrow(
      new SnapshotWriteError(
        '"app_user_assignment" records were hashed without other volatile fields than the snapshot\'s',
      ),
    );
    await expect(writer.finish({})).rejects.toThrow(SnapshotWriteError);
  });

  it('fails the part with a SnapshotWriteError for an item that is neither', async () => {
    const writer = await SnapshotWriter.create({
      store,
      prefix: 'teams/t/null/',
      keyRing,
      volatileFields: OKTA_VOLATILE_FIELDS,
    });

    await expect(writer.writePart('app_user_assignment', [null as never])).rejects.toThrow(
      new SnapshotWriteError('a record of type "undefined" was given for the "app_user_assignment" part'),
    );
  });

  it('checks each record as the writer does', () => {
    const [record] = assignments(1);

    expect(() => encodeRecords('user', [record], OKTA_VOLATILE_FIELDS)).toThrow(
      new SnapshotWriteError('a record of type "app_user_assignment" was given for the "user" part'),
    );
    expect(() =>
      encodeRecords('app_user_assignment', [{ ...record, data: [] as never }], OKTA_VOLATILE_FIELDS),
    ).toThrow(new SnapshotWriteError('"app_user_assignment" record 0oa1:00u0: data must be a JSON object'));
  });
});
