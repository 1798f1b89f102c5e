import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startEntraSimulator, type RunningEntraSimulator } from '@libs/simulators/entra/index.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { collectParts } from '@libs/providers/testing/collect-parts.js';
import { contentHash } from '@libs/snapshot/content-hash.js';
import { isEncodedRecords } from '@libs/snapshot/encoded-records.js';

import { EntraConnector } from './entra-connector.js';
import { nextLinkOf } from './entra-list-page.js';
import { ENTRA_VOLATILE_FIELDS } from './entra-not-captured.js';
import { entraBackupPermissions } from './entra-resource-catalog.js';

describe('EntraConnector collecting for a snapshot (encodeWithout)', () => {
  let sim: RunningEntraSimulator;
  let connector: EntraConnector;

  beforeAll(async () => {
    sim = await startEntraSimulator({ users: 1200, groups: 4, seed: 21 });
    const app = sim.registerApp(entraBackupPermissions());
    connector = new EntraConnector({
      graphUrl: sim.baseUrl,
      tenantId: sim.tenantId,
      ...app,
      allowedHosts: ['127.0.0.1'],
      caCertPem: sim.caCertPem,
    });
  });
  afterAll(async () => {
    await connector?.close();
    await sim?.close();
  });

  it('yields the records a plain collection yields, users and memberships encoded on a worker thread page by page', async () => {
    const plain = await collectParts(connector, {});
    const text = new TextDecoder();
    const encoded = new Map<string, { records: ResourceRecord[]; batches: number; cursor?: string }>();
    for await (const part of connector.collect({ encodeWithout: ENTRA_VOLATILE_FIELDS })) {
      const collected = {
        records: [] as ResourceRecord[],
        batches: 0,
        cursor: undefined as string | undefined,
      };
      for await (const item of part.records) {
        if (!isEncodedRecords(item)) {
          collected.records.push(item);
          continue;
        }
        collected.batches++;
        item.ids.forEach((id, index) => {
          const start = index === 0 ? 0 : item.ends[index - 1];
          const record = JSON.parse(
            text.decode(item.lines.subarray(start, item.ends[index])),
          ) as ResourceRecord;
          expect([record.id, item.hashes[index]]).toEqual([
            id,
            contentHash(record.data, ENTRA_VOLATILE_FIELDS),
          ]);
          collected.records.push(record);
        });
      }
      collected.cursor = part.cursor;
      encoded.set(part.type, collected);
    }
    expect([...encoded.keys()]).toEqual([...plain.keys()]);
    for (const [type, part] of plain)
      expect([type, encoded.get(type)?.records.length, encoded.get(type)?.records]).toEqual([
        type,
        part.records.length,
        part.records,
      ]);
    // 1,200 users listed with their managers expanded (entra-shared-listing.ts), which Graph
    // answers 100 a page: twelve pages, twelve batches; the delta link still comes first.
    expect(encoded.get('user')?.batches).toBe(12);
    expect(new URL(JSON.parse(encoded.get('user')!.cursor!).deltaLink as string).pathname).toBe(
      '/v1.0/users/delta',
    );
    // Groups are a parent (members, owners): parsed on the main thread, never encoded; their
    // members are, one batch per group (each a page).
    expect(encoded.get('group')?.batches).toBe(0);
    expect(encoded.get('group_membership')?.batches).toBe(plain.get('group')!.records.length);
  });

  it('finds the next link in a page body without parsing it, and none on the last page', () => {
    const page = (json: string) => new Uint8Array(Buffer.from(json)) as Uint8Array<ArrayBuffer>;
    expect(
      nextLinkOf(
        page(
          '{"@odata.context":"x","@odata.nextLink" : "https://graph.microsoft.com/v1.0/users?$skiptoken=a\\u0026b","value":[{"note":"\\"@odata.nextLink\\""}]}',
        ),
        '/v1.0/users',
      ),
    ).toBe('https://graph.microsoft.com/v1.0/users?$skiptoken=a&b');
    expect(
      nextLinkOf(page('{"value":[{"note":"\\"@odata.nextLink\\": \\"x\\""}]}'), '/v1.0/users'),
    ).toBeUndefined();
    expect(() => nextLinkOf(page('{"@odata.nextLink":3,"value":[]}'), '/v1.0/users')).toThrow(/not a string/);
  });
});
