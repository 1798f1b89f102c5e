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
 * until Graph finds it, writes naming them sent again while Graph refuses them as not there yet,
 * and the time each write waited, counted per write even when writes run concurrently.
 * With `maxWaitMs` 0 it waits for nothing (writes fail at Graph's first refusal).
 */
export class ReplicationTracker {
  private readonly fresh = new Set<string>();
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
   * After a creation: remembers the object's new ids, and reads a directory object back until
   * Graph finds it, so that the writes naming it next find it too.
   */
  async created(
    graph: GraphApiClient,
    type: string,
    result: RestoreWriteResult,
    signal?: AbortSignal,
  ): Promise<void> {
    if (this.maxWaitMs === 0) return;
    for (const id of [result.id, ...Object.values(result.renamed ?? {})]) this.fresh.add(id.toLowerCase());
    const template = READ_BACK[type];
    if (template)
      await graph.readBack({ template, params: { id: result.id }, select: ['id'], signal }, this.wait());
  }

  private wait(): ReplicationWait {
    return {
      maxWaitMs: this.maxWaitMs,
      namesFresh: (text) => [...text.matchAll(GUID)].some(([id]) => this.fresh.has(id.toLowerCase())),
      created: (ids) => {
        for (const id of ids) this.fresh.add(id.toLowerCase());
      },
      waited: (ms) => {
        const tally = this.current.getStore();
        if (tally) tally.waitedMs += ms;
      },
    };
  }
}
