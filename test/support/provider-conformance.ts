import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import type { DeletedRecord, ProviderConnector } from '@libs/providers/provider-connector.js';
import { ProviderAuthError } from '@libs/providers/provider-errors.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { collectParts, type CollectedPart, cursorsOf } from '@libs/providers/testing/collect-parts.js';
import { mergePart } from '@libs/providers/testing/merge-parts.js';

/** One object as the tenant holds it, the shape simulators snapshot (libs/simulators/okta). */
export interface HeldRecord {
  id: string;
  name: string | null;
  data: Record<string, unknown>;
}

/** A provider's simulator running one tenant, with an integration installed for backups. */
export interface SimulatedTenant {
  /** A connector to the tenant with the integration's credentials, or with `clientSecret` instead. */
  connect(options?: { clientSecret?: string }): ProviderConnector;
  /** Every object the tenant holds, by type, exactly as a client listing the API receives it. */
  holdings(): Record<string, HeldRecord[]>;
  /** What the simulator answered so far: every request, and the 429s among them. */
  answered(): { total: number; status429: number };
  close(): Promise<void>;
}

/**
 * What the conformance suite needs of a provider: its simulator's tenants, and how its admins
 * change one. One harness per provider (libs/providers/<kind>), beside its simulator.
 */
export interface ProviderHarness<T extends SimulatedTenant = SimulatedTenant> {
  kind: string;
  /**
   * A tenant of the simulator: `plain` answers everything; `faulty` fails a share of requests
   * (5xx, dropped connections, cut-off bodies); `rate_limited` enforces the provider's real limits
   * and has one bucket spent already, so a backup starting now meets a 429 and must wait.
   * A `plain` tenant holds more objects of `paging.type` than fit `paging.pages` pages.
   */
  tenant(kind: 'plain' | 'faulty' | 'rate_limited'): Promise<T>;
  /** A list that pages: its type, its `METHOD /template` in ConnectorStats, its page size, a page count it exceeds. */
  paging: { type: string; endpoint: string; pageSize: number; pages: number };
  /** Requests a connector has in flight at once: a 429 storm is more 429s than that per spent bucket. */
  maxConcurrency: number;
  /**
   * Changes `tenant` as its admins would, through its API, touching every type the provider
   * collects incrementally: objects created, edited and deleted, children added and removed.
   */
  change(tenant: T): Promise<void>;
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Records as ids, names and data, sorted by id, for whole comparisons. */
function comparable(records: Iterable<HeldRecord | ResourceRecord>): HeldRecord[] {
  return [...records].map(({ id, name, data }) => ({ id, name, data })).sort(byId);
}

/** Every part equals the tenant's holdings of its type: nothing missing, nothing extra, no duplicate. */
function expectHoldings(parts: Map<string, CollectedPart>, tenant: SimulatedTenant): void {
  const held = tenant.holdings();
  for (const [type, part] of parts)
    expect({ type, records: comparable(part.records) }).toStrictEqual({
      type,
      records: comparable(held[type] ?? []),
    });
}

/** Collects every part one after another, then closes the connector. */
async function collectAll(connector: ProviderConnector): Promise<Map<string, CollectedPart>> {
  try {
    return await collectParts(connector);
  } finally {
    await connector.close();
  }
}

/**
 * The contract every provider connector and its simulator meet (ProviderConnector in
 * libs/providers/provider-connector.ts), run once per provider as the object-store drivers run
 * libs/object-store/object-store.contract.spec.ts. The restore round trip is proven by
 * test/restore-fidelity.e2e-spec.ts and test/restore-fidelity-recorded-*.e2e-spec.ts (Okta) and
 * test/entra-restore-fidelity.e2e-spec.ts, on the harness test/support/restore-fidelity.ts, which a
 * new provider's restorer joins with a module of its own (okta-fidelity.ts, entra-fidelity.ts).
 */
export function describeProviderConformance<T extends SimulatedTenant>(harness: ProviderHarness<T>): void {
  describe(`provider conformance: ${harness.kind}`, () => {
    let plain: T;
    let limited: T;
    let limitedBackup: Promise<{
      parts: Map<string, CollectedPart>;
      stats: ReturnType<ProviderConnector['stats']>;
    }>;

    beforeAll(async () => {
      // The rate-limited backup waits for a window to reset (a minute at Okta): it starts first
      // and is checked last, so the wait overlaps the other tests.
      limited = await harness.tenant('rate_limited');
      const connector = limited.connect();
      limitedBackup = collectParts(connector).then(async (parts) => {
        await connector.close();
        return { parts, stats: connector.stats() };
      });
      limitedBackup.catch(() => undefined);
      plain = await harness.tenant('plain');
    });

    afterAll(async () => {
      await limitedBackup?.catch(() => undefined);
      await Promise.all([plain?.close(), limited?.close()]);
    });

    it('proves its credentials, and refuses a wrong secret with ProviderAuthError', async () => {
      const right = plain.connect();
      const wrong = plain.connect({ clientSecret: 'not-the-secret' });
      try {
        await expect(right.verifyCredentials()).resolves.toBeUndefined();
        await expect(wrong.verifyCredentials()).rejects.toBeInstanceOf(ProviderAuthError);
      } finally {
        await Promise.all([right.close(), wrong.close()]);
      }
    });

    it('collects every type in dependency order, exactly as the tenant holds it, following every page', async () => {
      const connector = plain.connect();
      const parts = await collectAll(connector);

      expect([...parts.keys()]).toEqual([...connector.resourceTypes]);
      expectHoldings(parts, plain);
      // A child's id names its parent first (`<parentId>:<childId>`, libs/records/resource-record.ts): the
      // parent came in an earlier part.
      const seen = new Set<string>();
      const orphans: string[] = [];
      for (const [type, part] of parts) {
        for (const { id } of part.records)
          if (id.includes(':') && !seen.has(id.slice(0, id.indexOf(':')))) orphans.push(`${type}/${id}`);
        for (const { id } of part.records) seen.add(id);
      }
      expect(orphans).toEqual([]);

      const { type, endpoint, pageSize, pages } = harness.paging;
      expect(parts.get(type)!.records.length).toBeGreaterThan(pages * pageSize);
      expect(connector.stats().byEndpoint[endpoint]).toBeGreaterThan(pages);
      expect(connector.stats()).toMatchObject({ status429: 0, retries: 0 });
    });

    it('retries what fails on the way (5xx, dropped connections, cut-off bodies) and loses nothing', async () => {
      const faulty = await harness.tenant('faulty');
      try {
        const connector = faulty.connect();
        expectHoldings(await collectAll(connector), faulty);
        expect(connector.stats().retries).toBeGreaterThan(0);
      } finally {
        await faulty.close();
      }
    });

    it('collects incrementally what a full collection holds: the base merged with the changes and deletions', async () => {
      // The cursors the base's parts gave, opaque here as in a backup (ProviderConnector).
      const base = await collectAll(plain.connect());
      const cursors = cursorsOf(base);
      expect(Object.keys(cursors).length).toBeGreaterThan(0);
      await harness.change(plain);

      const incremental = plain.connect();
      const delta = await collectParts(incremental, { cursors });
      const deletions: DeletedRecord[] = [];
      try {
        for await (const deleted of incremental.deletedSince(cursors)) deletions.push(deleted);
      } finally {
        await incremental.close();
      }
      const full = await collectAll(plain.connect());

      expect([...delta.values()].some((part) => part.delta !== undefined)).toBe(true);
      const deleted = new Set(deletions.map((record) => record.id));
      for (const [type, part] of full)
        expect({
          type,
          records: comparable(mergePart(base.get(type)!.records, delta.get(type)!, deleted).values()),
        }).toStrictEqual({ type, records: comparable(part.records) });
      expectHoldings(full, plain);
    });

    it('waits out the rate limits without a storm of 429s, and loses nothing', async () => {
      const { parts, stats } = await limitedBackup;
      expectHoldings(parts, limited);
      expect(stats.status429).toBeGreaterThanOrEqual(1);
      expect(stats.status429).toBeLessThanOrEqual(harness.maxConcurrency);
      expect(limited.answered().status429).toBe(stats.status429);
    }, 120_000);
  });
}
