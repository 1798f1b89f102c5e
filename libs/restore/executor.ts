import pMap from 'p-map';
import type { ProviderConnector } from '@libs/providers/provider-connector.js';
import type { LiveResource, ProviderRestorer, RestoreWriteResult } from '@libs/providers/provider-restore.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import type { RestoreTypeSummary } from './restore-types.js';
import { cannotWrite, ItemLog, type RestoreSink } from './items.js';
import { ownId, planType, type TypePlan } from './planner.js';
import { type RestoreSelection, RestoreScope } from './scope.js';
import { RestorePruner } from './pruner.js';
import { mapUnselectedType } from '@libs/restore/cross-org/map-unselected.js';
import { absentNamed } from '@libs/restore/cross-org/absent-references.js';

/** How often a long type reports its progress, ms. */
const PROGRESS_EVERY_MS = 2000;
/** Writes to the provider at once unless the restorer says (`writesInFlight`); the connector's governor caps requests in flight below this. */
const WRITES_IN_FLIGHT = 8;

/**
 * Executes a restore (DESIGN section 6; docs/restore.md): type by type in the provider's order,
 * plans (planner.ts) then applies the creations and updates, rewriting each record's
 * references through the id map of the objects re-created so far; then, with `prune`, deletes
 * in reverse order what the backup lacks (pruner.ts, with its lockout guards). A write
 * the provider refuses fails its item and the restore goes on.
 *
 * @returns the summary per type
 * @throws ProviderAuthError when the provider refuses the credentials (nothing more can be done),
 *   ProviderError when the live org cannot be read, SnapshotIntegrityError for an altered backup,
 *   and whatever `sink.progress` throws to stop it
 */
export async function executeRestore(input: {
  snapshot: SnapshotReader;
  connector: ProviderConnector;
  restorer: ProviderRestorer;
  selection: RestoreSelection;
  prune: boolean;
  sink: RestoreSink;
  /** the live org is another org than the backup's: objects are matched by natural key (planType `crossOrg`) */
  crossOrg?: boolean;
  /**
   * What is written for a backup's record that updates a live object, when not the record itself
   * (an undo of some fields: the object as it is now with those fields put back)
   */
  reshape?(type: string, record: ResourceRecord): ResourceRecord;
  signal?: AbortSignal;
}): Promise<Record<string, RestoreTypeSummary>> {
  const { snapshot, restorer, sink } = input;
  const scope = new RestoreScope(input.selection, restorer);
  const ids = new Map<string, string>();
  /** into another org: the provider's own objects of the backup the target has no twin of */
  const absent = new Map<string, string>();
  const summary: Record<string, RestoreTypeSummary> = {};
  const items = new ItemLog(sink);
  const types = restorer.order.filter((type) => snapshot.has(type));
  const pruner = new RestorePruner(input.connector, restorer, items, summaryOf, input.signal);
  await restorer.prepare(types, input.signal);

  function summaryOf(type: string): RestoreTypeSummary {
    summary[type] ??= { create: 0, update: 0, delete: 0, skip: 0, failed: 0, notes: [] };
    return summary[type];
  }

  let pct = 20;
  for (const [index, type] of types.entries()) {
    if (input.crossOrg && !input.selection.types.has(type))
      await mapUnselectedType({ ...input, type, ids, absent });
    if (!input.selection.types.has(type) && !scope.reachesBeyondTypes()) continue;
    pct = Math.round(20 + (index / types.length) * (input.prune ? 60 : 75));
    await sink.progress(pct, `Restoring ${type}`, summary);
    const plan = await planType({
      type,
      snapshot,
      connector: input.connector,
      restorer,
      scope,
      ids,
      crossOrg: input.crossOrg,
      signal: input.signal,
    });
    // An id this restore already mapped stays mapped: an object it re-created is the one its
    // references mean. A live record matched by natural key may still name the deleted object (an
    // app's sign-on policy record names the policy deleted since) and must not map it back.
    for (const [from, to] of plan.rematched) if (!ids.has(from)) ids.set(from, to);
    for (const [id, absentType] of plan.absent) absent.set(id, absentType);
    const typeSummary = summaryOf(type);
    typeSummary.skip += plan.skip;
    addNotes(typeSummary, plan.notes);
    const created = await applyWrites(plan, typeSummary);
    addNotes(typeSummary, (await restorer.settle?.(type)) ?? []);
    if (input.prune) pruner.add(plan, created);
    await items.flush();
  }
  if (input.prune) {
    await sink.progress(85, 'Removing what the backup lacks (prune)', summary);
    await pruner.run();
    await items.flush();
  }
  return summary;

  /**
   * Applies a plan's creations and updates.
   * @returns the created objects, as live resources, when the restore prunes; otherwise none
   */
  async function applyWrites(plan: TypePlan, typeSummary: RestoreTypeSummary): Promise<LiveResource[]> {
    if (plan.creates.length + plan.updates.length === 0) return [];
    // A priority moved by one write moves others: write the whole sequence again, in order.
    const changes = new Map<number, LiveResource>();
    for (const change of [...plan.updates, ...plan.unchanged]) changes.set(change.position, change.live);
    typeSummary.skip -= plan.unchanged.length;
    const positions =
      changes.size === 0 ? plan.creates : [...plan.creates, ...changes.keys()].sort((a, b) => a - b);
    const support = restorer.support(plan.type);
    const together = await createdTogether(plan);
    const created: LiveResource[] = [];
    let done = 0;
    let reportedAt = Date.now();
    /** Progress within a long type; also where a restore failed by the stale sweep stops. */
    const advance = async () => {
      done += 1;
      if (Date.now() - reportedAt < PROGRESS_EVERY_MS) return;
      reportedAt = Date.now();
      await sink.progress(pct, `Restoring ${plan.type}: ${done} of ${positions.length} writes`, summary);
    };

    const apply = async ({ position, record }: { position: number; record: ResourceRecord }) => {
      const live = changes.get(position);
      const action = live ? ('update' as const) : ('create' as const);
      const base = { resourceType: plan.type, resourceId: record.id, name: record.name, action };
      if (!(live ? support.update : support.create)) {
        typeSummary.skip += 1;
        await items.add(cannotWrite(base, action, support.notes, support.unavailable));
        return;
      }
      const rewritten = restorer.rewrite(
        live && input.reshape ? input.reshape(plan.type, record) : record,
        ids,
      );
      // Into another org: what names the source's own object the target lacks is named, not refused.
      const lacking = input.crossOrg ? absentNamed(rewritten, restorer.references(rewritten), absent) : null;
      if (lacking) {
        // An object left alone is absent in turn for what names it (never a link: its own id is another's).
        if (!live && !record.id.includes(':')) absent.set(record.id, plan.type);
        typeSummary.skip += 1;
        await items.add({ ...base, action: 'skip', outcome: 'ok', notes: [lacking] });
        return;
      }
      let result: RestoreWriteResult;
      try {
        result = live
          ? await restorer.apply(
              { action: 'update', record: { ...rewritten, id: live.id }, live },
              input.signal,
            )
          : await restorer.apply(
              { action: 'create', record: rewritten, with: together.get(ownId(record.id)) ?? [] },
              input.signal,
            );
      } catch (error) {
        typeSummary.failed += 1;
        await items.add({
          ...base,
          outcome: 'failed',
          error: items.failureMessage(error, input.signal),
          notes: [],
        });
        return;
      }
      if (!live) {
        mapIds(ids, rewritten.id, result.id);
        for (const [from, to] of Object.entries(result.renamed ?? {})) ids.set(from, to);
        scope.follow(ownId(record.id));
        // Only a prune weighs what was created (its lockout guards), and a restore of 100,000
        // users creates about a million objects: their live forms and hashes are made only then.
        if (input.prune) created.push(restorer.live({ ...rewritten, id: result.id }));
      }
      typeSummary[action] += 1;
      const newId = result.id !== record.id ? { newId: result.id } : {};
      await items.add({ ...base, outcome: 'ok', ...newId, notes: result.notes });
      await advance();
    };

    const records = snapshot.readPositions(plan.type, positions);
    const sequence = restorer.sequence(plan.type);
    if (sequence) {
      const all: Array<{ position: number; record: ResourceRecord }> = [];
      for await (const entry of records) all.push(entry);
      for (const entry of all.sort((a, b) => sequence(a.record, b.record))) await apply(entry);
    } else {
      await pMap(records, apply, { concurrency: restorer.writesInFlight ?? WRITES_IN_FLIGHT });
    }
    return created;
  }

  /**
   * For a type the provider creates with children in one request (a user with its group
   * memberships), the backup's child record ids of each object to create, rewritten.
   */
  async function createdTogether(plan: TypePlan): Promise<Map<string, string[]>> {
    const together = new Map<string, string[]>();
    const rule = restorer.createdWith(plan.type);
    if (!rule || plan.creates.length === 0 || !snapshot.has(rule.type)) return together;
    const creating = new Set<string>();
    for await (const { record } of snapshot.readPositions(plan.type, plan.creates))
      creating.add(ownId(record.id));
    for await (const entry of snapshot.readIndex(rule.type)) {
      const owner = entry.id.split(':')[rule.component];
      if (!creating.has(owner)) continue;
      const rewritten = restorer.rewrite({ type: rule.type, id: entry.id, name: null, data: {} }, ids).id;
      together.set(owner, [...(together.get(owner) ?? []), rewritten]);
    }
    return together;
  }
}

/** Maps the components that differ between a record id before and after re-creation. */
function mapIds(ids: Map<string, string>, before: string, after: string): void {
  const from = before.split(':');
  const to = after.split(':');
  from.forEach((part, index) => {
    if (to[index] !== undefined && to[index] !== part) ids.set(part, to[index]);
  });
}

function addNotes(summary: RestoreTypeSummary, notes: Iterable<string>): void {
  for (const note of notes) if (!summary.notes.includes(note)) summary.notes.push(note);
}
