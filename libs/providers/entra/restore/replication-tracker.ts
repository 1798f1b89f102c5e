import { AsyncLocalStorage } from 'node:async_hooks';

import type { RestoreWriteResult } from '@libs/providers/provider-restore.js';
import type { GraphApiClient } from '@libs/providers/entra/graph-api-client.js';
import type { ReplicationWait } from '@libs/providers/entra/graph-replication.js';

/** How a created directory object of each type is read back: its item path ("Get user", "Get group"...). */
const READ_BACK: Readonly<Record<string, string>> = {
  user: '/v1.0/users/{id}',
  group: '/v1.0/groups/{id}',
  application: '/v1.0/applications/{id}',
  service_principal: '/v1.0/servicePrincipals/{id}',
  administrative_unit: '/v1.0/directory/administrativeUnits/{id}',
};

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * A restore's wait for Graph's replication of what it creates (graph-replication.ts): the ids
 * (and re-created applications' `appId`s) it created, each created directory object read back
 * until Graph finds it (in the background, awaited by `settle` once per type), writes naming them
 * sent again while Graph refuses them as not there yet, and the time each write waited, counted
 * per write even when writes run concurrently.
 * With `maxWaitMs` 0 it waits for nothing (writes fail at Graph's first refusal).
 */
export class ReplicationTracker {
  private readonly fresh = new Set<string>();
  /** Read backs of created objects still running (`created`), awaited by `settle`. */
  private readonly reading = new Set<Promise<void>>();
  /** Created objects Graph did not find within the wait. */
  private readonly unseen: string[] = [];
  private readonly current = new AsyncLocalStorage<{ waitedMs: number }>();

  /** @param maxWaitMs the longest one write or read back waits in all, ms; 0 turns the wait off */
  constructor(private readonly maxWaitMs: number) {}

  /**
   * Runs one write with its waits counted.
   * @returns its result, with a note saying how long it waited when it did
   */
  async counted(write: () => Promise<RestoreWriteResult>): Promise<RestoreWriteResult> {
    const tally = { waitedMs: 0 };
    const result = await this.current.run(tally, write);
    if (tally.waitedMs === 0) return result;
    const seconds = (tally.waitedMs / 1000).toFixed(1);
    return {
      ...result,
      notes: [
        ...result.notes,
        `Waited ${seconds} s for Graph to replicate objects this restore created (Graph answers a new object "does not exist" for seconds to minutes after its creation)`,
      ],
    };
  }

  /** `graph` as the current write uses it: waiting for replication unless the wait is off. */
  client(graph: GraphApiClient): GraphApiClient {
    return this.maxWaitMs > 0 ? graph.waitingForReplication(this.wait()) : graph;
  }

  /**
   * After a creation: remembers the object's new ids, and starts reading a directory object back
   * until Graph finds it, without holding up the write (other writes go on meanwhile); `settle`
   * waits for every read back started.
   */
  created(graph: GraphApiClient, type: string, result: RestoreWriteResult, signal?: AbortSignal): void {
    if (this.maxWaitMs === 0) return;
    for (const id of [result.id, ...Object.values(result.renamed ?? {})]) this.fresh.add(id.toLowerCase());
    const template = READ_BACK[type];
    if (!template) return;
    const reading = graph
      .readBack({ template, params: { id: result.id }, select: ['id'], signal }, this.wait(false))
      .then(
        (found) => {
          if (!found) this.unseen.push(result.id);
        },
        (error: unknown) => {
          // A read back that fails (aborted, refused) leaves the writes naming the object to wait.
          if (!signal?.aborted) this.unseen.push(`${result.id} (${String(error)})`);
        },
      )
      .finally(() => this.reading.delete(reading));
    this.reading.add(reading);
  }

  /**
   * Waits until Graph finds every object created so far (their read backs, run concurrently, so
   * the wait is the slowest object's remaining lag, not the sum), before the restore reads the
   * live directory again for the next type (a new group's members are read from the group).
   * @returns notes for the type's summary: how long it waited, and objects Graph did not find
   *   within the wait (the writes naming them wait on their own, and fail if Graph still refuses)
   */
  async settle(): Promise<string[]> {
    const count = this.reading.size;
    if (count === 0) return [];
    const startedAt = Date.now();
    while (this.reading.size > 0) await Promise.all([...this.reading]);
    const seconds = ((Date.now() - startedAt) / 1000).toFixed(1);
    const unseen = this.unseen.splice(0);
    return [
      `Waited ${seconds} s after the writes for Graph to replicate the ${count} objects still being read back (each created object is read back until Graph finds it)`,
      ...(unseen.length > 0
        ? [
            `Graph did not find ${unseen.length} created objects within the wait: ${unseen.slice(0, 5).join(', ')}`,
          ]
        : []),
    ];
  }

  /** @param counted whether pauses count to the current write's wait (not for a read back in the background) */
  private wait(counted = true): ReplicationWait {
    return {
      maxWaitMs: this.maxWaitMs,
      namesFresh: (text) => [...text.matchAll(GUID)].some(([id]) => this.fresh.has(id.toLowerCase())),
      created: (ids) => {
        for (const id of ids) this.fresh.add(id.toLowerCase());
      },
      waited: (ms) => {
        if (!counted) return;
        const tally = this.current.getStore();
        if (tally) tally.waitedMs += ms;
      },
    };
  }
}
