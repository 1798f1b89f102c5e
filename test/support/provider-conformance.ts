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
  /**
   * A connector to the tenant with the integration's credentials (`granted`), or with a secret or
   * key the integration does not hold (`wrong`).
   */
  connect(credentials?: 'granted' | 'wrong'): ProviderConnector;
  /** Every object the tenant holds, by type, exactly as a client listing the API receives it. */
  holdings(): Record<string, HeldRecord[]>;
  /** What the simulator answered so far: every request, and the 429s among them. */
  answered(): { total: number; status429: number };
  close(): Promise<void>;
}

/** Why the provider's API has no such thing: the case it drives proves the absence and says so in its title. */
export interface NotApplicable {
  notApplicable: string;
}

/** A list that pages: its type, its `METHOD /template` in ConnectorStats, its page size, a page count it exceeds. */
export interface Paging {
  type: string;
  endpoint: string;
  pageSize: number;
  pages: number;
}

/**
 * What the conformance suite needs of a provider: its simulator's tenants, and how its admins
 * change one. One harness per provider: `test/support/conformance/<kind>.ts` for the registry's
 * kinds (test/provider-conformance.e2e-spec.ts finds it by kind), beside its folder for a test
 * fixture's provider (test/fixtures/providers).
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
  /**
   * A list that pages; or, for a provider that answers everything at once, why, and the
   * `METHOD /template` of that one request.
   */
  paging: Paging | (NotApplicable & { endpoint: string });
  /** Requests a connector has in flight at once: a 429 storm is more 429s than that per spent bucket. */
  maxConcurrency: number;
  /**
   * How `tenant`'s admins change it, through its API, touching every type the provider collects
   * incrementally (objects created, edited and deleted, children added and removed); or why the
   * provider collects nothing incrementally (it makes no cursor and refuses one).
   */
  incremental: { change(tenant: T): Promise<void> } | NotApplicable;
  /**
   * Members of a record's `data` the provider mints anew on every read (the descriptor's
   * `volatileFields` that differ between two reads of an unchanged tenant), left out of comparisons.
   */
  volatileFields?: readonly string[];
}

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/** Records as ids, names and data without `volatile` members, sorted by id, for whole comparisons. */
function comparable(
  records: Iterable<HeldRecord | ResourceRecord>,
  volatile: readonly string[] = [],
): HeldRecord[] {
  const stable = (data: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(data).filter(([key]) => !volatile.includes(key)));
  return [...records].map(({ id, name, data }) => ({ id, name, data: stable(data) })).sort(byId);
}

/** Every part equals the tenant's holdings of its type: nothing missing, nothing extra, no duplicate. */
function expectHoldings(
  parts: Map<string, CollectedPart>,
  tenant: SimulatedTenant,
  volatile?: readonly string[],
): void {
  const held = tenant.holdings();
  for (const [type, part] of parts)
    expect({ type, records: comparable(part.records, volatile) }).toStrictEqual({
      type,
      records: comparable(held[type] ?? [], volatile),
    });
}

const isNotApplicable = (capability: object): capability is NotApplicable => 'notApplicable' in capability;

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
  const volatile = harness.volatileFields;
  const { paging, incremental } = harness;
  describe(`provider conformance: ${harness.kind}`, () => {
    let plain: T;
    let limited: T;
    let limitedBackup: Promise<{
      parts: Map<string, CollectedPart>;
      stats: ReturnType<ProviderConnector['stats']>;
    }>;

    beforeAll(async () => {
      plain = await harness.tenant('plain');
      // The rate-limited backup waits for a window to reset (a minute at Okta): it starts before
      // the tests and is checked last, so the wait overlaps them. Its tenant starts last, right
      // before it: a budget that refills continuously (Graph's) is whole again after a pause.
      limited = await harness.tenant('rate_limited');
      const connector = limited.connect();
      limitedBackup = collectParts(connector).then(async (parts) => {
        await connector.close();
        return { parts, stats: connector.stats() };
      });
      limitedBackup.catch(() => undefined);
    });

    afterAll(async () => {
      await limitedBackup?.catch(() => undefined);
      await Promise.all([plain?.close(), limited?.close()]);
    });

    it('proves its credentials, and refuses a secret or key the integration does not hold with ProviderAuthError', async () => {
      const right = plain.connect();
      const wrong = plain.connect('wrong');
      try {
        await expect(right.verifyCredentials()).resolves.toBeUndefined();
        await expect(wrong.verifyCredentials()).rejects.toBeInstanceOf(ProviderAuthError);
      } finally {
        await Promise.all([right.close(), wrong.close()]);
      }
    });

    it(
      isNotApplicable(paging)
        ? `collects every type in dependency order, exactly as the tenant holds it, in one ${paging.endpoint} (paging not applicable: ${paging.notApplicable})`
        : 'collects every type in dependency order, exactly as the tenant holds it, following every page',
      async () => {
        const connector = plain.connect();
        const parts = await collectAll(connector);

        expect([...parts.keys()]).toEqual([...connector.resourceTypes]);
        expectHoldings(parts, plain, volatile);
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

        if (isNotApplicable(paging)) expect(connector.stats().byEndpoint[paging.endpoint]).toBe(1);
        else {
          const { type, endpoint, pageSize, pages } = paging;
          expect(parts.get(type)!.records.length).toBeGreaterThan(pages * pageSize);
          expect(connector.stats().byEndpoint[endpoint]).toBeGreaterThan(pages);
        }
        expect(connector.stats()).toMatchObject({ status429: 0, retries: 0 });
      },
    );

    it('retries what fails on the way (5xx, dropped connections, cut-off bodies) and loses nothing', async () => {
      const faulty = await harness.tenant('faulty');
      try {
        const connector = faulty.connect();
        expectHoldings(await collectAll(connector), faulty, volatile);
        expect(connector.stats().retries).toBeGreaterThan(0);
      } finally {
        await faulty.close();
      }
    });

    if (isNotApplicable(incremental))
      it(`collects incrementally: not applicable (${incremental.notApplicable}): no part gives a cursor, and a cursor is refused`, async () => {
        const connector = plain.connect();
        const parts = await collectAll(connector);
        expect(cursorsOf(parts)).toEqual({});
        const type = connector.resourceTypes[0];
        const refused = { code: 'invalid_cursor' };
        const incrementalConnector = plain.connect();
        try {
          await expect(
            collectParts(incrementalConnector, { cursors: { [type]: 'a-cursor' } }),
          ).rejects.toMatchObject(refused);
          const deletions = async () => {
            for await (const deleted of incrementalConnector.deletedSince({ [type]: 'a-cursor' }))
              throw new Error(`reported ${deleted.id} deleted since a cursor it never made`);
          };
          await expect(deletions()).rejects.toMatchObject(refused);
        } finally {
          await incrementalConnector.close();
        }
      });
    else
      it('collects incrementally what a full collection holds: the base merged with the changes and deletions', async () => {
        // The cursors the base's parts gave, opaque here as in a backup (ProviderConnector).
        const base = await collectAll(plain.connect());
        const cursors = cursorsOf(base);
        expect(Object.keys(cursors).length).toBeGreaterThan(0);
        await incremental.change(plain);

        const connector = plain.connect();
        const delta = await collectParts(connector, { cursors });
        const deletions: DeletedRecord[] = [];
        try {
          for await (const deleted of connector.deletedSince(cursors)) deletions.push(deleted);
        } finally {
          await connector.close();
        }
        const full = await collectAll(plain.connect());

        expect([...delta.values()].some((part) => part.delta !== undefined)).toBe(true);
        const deleted = new Set(deletions.map((record) => record.id));
        for (const [type, part] of full)
          expect({
            type,
            records: comparable(
              mergePart(base.get(type)!.records, delta.get(type)!, deleted).values(),
              volatile,
            ),
          }).toStrictEqual({ type, records: comparable(part.records, volatile) });
        expectHoldings(full, plain, volatile);
      });

    it('waits out the rate limits without a storm of 429s, and loses nothing', async () => {
      const { parts, stats } = await limitedBackup;
      expectHoldings(parts, limited, volatile);
      expect(stats.status429).toBeGreaterThanOrEqual(1);
      expect(stats.status429).toBeLessThanOrEqual(harness.maxConcurrency);
      expect(limited.answered().status429).toBe(stats.status429);
    }, 120_000);
  });
}
