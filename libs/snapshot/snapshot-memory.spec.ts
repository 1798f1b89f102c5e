import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';

import { KeyRing } from '@libs/crypto/key-ring.js';
import { FsObjectStore } from '@libs/object-store/fs-object-store.js';
import { ResourceRecord } from '@libs/records/resource-record.js';

import { SnapshotReader } from './snapshot-reader.js';
import { SnapshotWriter } from './snapshot-writer.js';
import { OKTA_VOLATILE_FIELDS } from '@libs/providers/okta/okta-volatile-fields.js';

// 200,000 records written and read: over a minute on a busy 2-core runner; memory, not time, is what it checks.
jest.setTimeout(240_000);

const RECORDS = 200_000;
const PREFIX = 'teams/t1/users/u1/connections/c1/backups/big/';
/** Loose bound on live heap growth; holding the records would take well over 100 MB. */
const MAX_HEAP_GROWTH = 32 * 1024 * 1024;

// A full GC before each sample measures what is retained, not garbage not yet collected.
setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

function retainedHeap(): number {
  gc();
  return process.memoryUsage().heapUsed;
}

function user(i: number): ResourceRecord {
  const login = `user${i}@example.com`;
  return {
    type: 'user',
    id: `00u${String(i).padStart(8, '0')}`,
    name: login,
    data: {
      id: `00u${i}`,
      status: i % 10 === 0 ? 'SUSPENDED' : 'ACTIVE',
      lastLogin: new Date(1_700_000_000_000 + i * 1000).toISOString(),
      profile: {
        login,
        email: login,
        firstName: `First${i}`,
        lastName: `Last${i}`,
        department: `D${i % 37}`,
      },
      _links: { self: { href: `https://acme.okta.com/api/v1/users/00u${i}` } },
    },
  };
}

/** Yields `count` records one by one, sampling the heap every 50,000. */
async function* generated(samples: number[], count = RECORDS): AsyncGenerator<ResourceRecord> {
  for (let i = 0; i < count; i += 1) {
    if (i % 50_000 === 0) samples.push(retainedHeap());
    yield user(i);
  }
}

describe('snapshot memory', () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'snapshot-memory-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it(`writes and reads ${RECORDS} records with flat memory`, async () => {
    const store = new FsObjectStore(dir);
    const keyRing = KeyRing.parse(Buffer.alloc(32, 7).toString('base64'));
    const baseline = retainedHeap();
    const writeSamples: number[] = [];
    const readSamples: number[] = [];

    const writer = await SnapshotWriter.create({
      store,
      prefix: PREFIX,
      keyRing,
      volatileFields: OKTA_VOLATILE_FIELDS,
    });
    const part = await writer.writePart('user', generated(writeSamples));
    await writer.finish({ backupId: 'big' });

    const reader = await SnapshotReader.open({ store, prefix: PREFIX, keyRing });
    let count = 0;
    let sample: ResourceRecord | undefined;
    for await (const record of reader.readPart('user')) {
      if (count % 50_000 === 0) readSamples.push(retainedHeap());
      if (count === 123_456) sample = record;
      count += 1;
    }

    expect(part.count).toBe(RECORDS);
    expect(part.plainBytes).toBeGreaterThan(50 * 1024 * 1024);
    expect(count).toBe(RECORDS);
    expect(sample).toEqual(user(123_456));
    expect(reader.manifest.counts).toEqual({ user: RECORDS });
    const growth = Math.max(...writeSamples, ...readSamples) - baseline;
    expect(growth).toBeLessThan(MAX_HEAP_GROWTH);
  });

  it('index ids kept by a reader hold only themselves, not the text they were read from', async () => {
    const store = new FsObjectStore(dir);
    const keyRing = KeyRing.parse(Buffer.alloc(32, 7).toString('base64'));
    const prefix = PREFIX.replace('big/', 'ids/');
    const writer = await SnapshotWriter.create({
      store,
      prefix,
      keyRing,
      volatileFields: OKTA_VOLATILE_FIELDS,
    });
    // Okta's 20-character ids: V8 copies a cut of under 13 characters, and slices a longer one.
    const records = async function* () {
      for await (const record of generated([], 50_000))
        yield { ...record, id: record.id.replace('00u', '00u000000000') };
    };
    await writer.writePart('user', records());
    await writer.finish({ backupId: 'ids' });
    const reader = await SnapshotReader.open({ store, prefix, keyRing });

    // One id in 50, as a restore keeps the owners of what it re-creates: 1,000 ids. Ids cut out
    // of the text would keep every chunk of its 7 MB index alive.
    const baseline = retainedHeap();
    const kept: string[] = [];
    let entries = 0;
    for await (const entry of reader.readIndex('user')) {
      if (entries % 50 === 0) kept.push(entry.id);
      entries += 1;
    }
    const growth = retainedHeap() - baseline;

    expect(entries).toBe(50_000);
    expect(new Set(kept).size).toBe(1_000);
    expect(growth).toBeLessThan(1024 * 1024);
  });
});
