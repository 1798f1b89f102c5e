import pMap from 'p-map';
import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import type { LiveResource, ProviderRestorer } from '@libs/providers/provider-restore.js';
import type { RestoreTypeSummary } from './restore-types.js';
import { cannotWrite, type ItemLog } from './items.js';
import { ownId, type TypePlan } from './planner.js';

/** Deletions of a prune at once; the connector's governor caps requests in flight below this. */
const DELETES_IN_FLIGHT = 8;

/**
 * The prune of a restore (`prune: true`, docs/restore.md "Prune and the lockout guard"): deletes
 * the live objects the backup lacks, in reverse restore order (children before what they hang
 * off), and never:
 * - an object the provider protects (`LiveResource.protectedBecause`: the connection's own API
 *   service integration);
 * - a deletion the provider's guard refuses given what remains (`guardDeletions`: the org's last
 *   super admin), created objects counted as remaining;
 * - an object whose deletion would take a guarded record with it that must stay (a user or group
 *   holding the last super admin role), read from the live org before deleting;
 * - an object that a record which must stay hangs off.
 * Each refusal is counted as a skip with its reason.
 */
export class RestorePruner {
  private readonly plans: Array<{ plan: TypePlan; created: LiveResource[] }> = [];
  private readonly guardedLive = new Map<string, LiveResource[]>();

  constructor(
    private readonly connector: ProviderConnector,
    private readonly restorer: ProviderRestorer,
    private readonly items: ItemLog,
    private readonly summaryOf: (type: string) => RestoreTypeSummary,
    private readonly signal?: AbortSignal,
  ) {}

  /** Keeps a type's plan and the objects the restore created, for the prune at the end. */
  add(plan: TypePlan, created: LiveResource[]): void {
    if (plan.unmatched.length > 0) this.plans.push({ plan, created });
  }

  async run(): Promise<void> {
    const kept = new Set<string>();
    // Record ids the prune means to delete: a record hanging off one of them goes with it.
    const going = new Set(
      this.plans
        .filter(({ plan }) => this.restorer.support(plan.type).delete)
        .flatMap(({ plan }) => plan.unmatched.filter((resource) => !resource.protectedBecause))
        .map((resource) => resource.id),
    );
    for (const { plan, created } of [...this.plans].reverse()) {
      const summary = this.summaryOf(plan.type);
      const refusals = new Map<string, string>();
      for (const resource of plan.unmatched) {
        if (resource.protectedBecause) refusals.set(resource.id, resource.protectedBecause);
        else if (kept.has(ownId(resource.id)))
          refusals.set(resource.id, 'Kept: a resource that must stay belongs to it');
      }
      const withParent = new Set(
        plan.unmatched.filter(
          (resource) =>
            !refusals.has(resource.id) && parentIds(resource.id).some((parent) => going.has(parent)),
        ),
      );
      const remaining = [...plan.matched, ...created];
      const candidates = () =>
        plan.unmatched.filter((resource) => !refusals.has(resource.id) && !withParent.has(resource));
      for (const [id, why] of this.restorer.guardDeletions(plan.type, candidates(), remaining, going))
        refusals.set(id, why);
      for (const [id, why] of await this.consequences(plan.type, candidates(), going)) refusals.set(id, why);
      for (const [id, why] of refusals) {
        for (const part of id.split(':').slice(0, -1)) kept.add(part);
        note(summary, why);
      }
      for (const _ of withParent)
        note(summary, 'Left to go with the object it belongs to, which the prune deletes');
      await this.delete(plan.type, candidates(), summary);
      this.guardedLive.delete(plan.type);
    }
  }

  private async delete(type: string, deleting: LiveResource[], summary: RestoreTypeSummary): Promise<void> {
    const support = this.restorer.support(type);
    await pMap(
      deleting,
      async (live) => {
        const base = { resourceType: type, resourceId: live.id, name: live.name, action: 'delete' as const };
        if (!support.delete) {
          summary.skip += 1;
          await this.items.add(cannotWrite(base, 'delete', support.notes));
          return;
        }
        try {
          await this.restorer.apply({ action: 'delete', type, live }, this.signal);
        } catch (error) {
          summary.failed += 1;
          await this.items.add({
            ...base,
            outcome: 'failed',
            error: this.items.failureMessage(error, this.signal),
            notes: [],
          });
          return;
        }
        summary.delete += 1;
        await this.items.add({ ...base, outcome: 'ok', notes: [] });
      },
      { concurrency: DELETES_IN_FLIGHT },
    );
  }

  /**
   * Deletions refused because records of a guarded type hang off them (`<userId>:<assignmentId>`)
   * and the guard would refuse deleting those: deleting a user deletes its role assignments.
   */
  private async consequences(
    type: string,
    deleting: LiveResource[],
    going: ReadonlySet<string>,
  ): Promise<Map<string, string>> {
    const refusals = new Map<string, string>();
    if (deleting.length === 0) return refusals;
    const byOwner = new Map(deleting.map((resource) => [ownId(resource.id), resource.id]));
    for (const guardedType of this.restorer.guardedTypes) {
      if (guardedType === type) continue;
      const all = await this.liveOf(guardedType);
      const doomed = all.filter((record) =>
        record.id
          .split(':')
          .slice(0, -1)
          .some((part) => byOwner.has(part)),
      );
      if (doomed.length === 0) continue;
      const leaving = new Set(doomed);
      const staying = all.filter((record) => !leaving.has(record));
      for (const [id, why] of this.restorer.guardDeletions(guardedType, doomed, staying, going)) {
        for (const part of id.split(':').slice(0, -1)) {
          const owner = byOwner.get(part);
          if (owner) refusals.set(owner, `Kept: deleting it would delete ${guardedType} ${id}. ${why}`);
        }
      }
    }
    return refusals;
  }

  private async liveOf(type: string): Promise<LiveResource[]> {
    const cached = this.guardedLive.get(type);
    if (cached) return cached;
    const live: LiveResource[] = [];
    for await (const part of this.connector.collect({ types: [type], signal: this.signal }))
      for await (const record of part.records) live.push(this.restorer.live(record));
    this.guardedLive.set(type, live);
    return live;
  }
}

/** Counts a skip of the prune and keeps its reason once. */
function note(summary: RestoreTypeSummary, why: string): void {
  summary.skip += 1;
  if (!summary.notes.includes(why)) summary.notes.push(why);
}

/** The record ids a record id hangs off: `a:b:c` -> `a`, `a:b`. */
function parentIds(recordId: string): string[] {
  const parts = recordId.split(':');
  return parts.slice(1).map((_, index) => parts.slice(0, index + 1).join(':'));
}
