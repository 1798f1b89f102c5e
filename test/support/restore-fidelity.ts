import { expect } from '@jest/globals';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import fastJsonPatch from 'fast-json-patch';
import { fileURLToPath } from 'node:url';
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { SnapshotReader } from '@libs/snapshot/snapshot-reader.js';
import { withoutVolatile } from '@libs/diff/record-patch.js';
import { openSnapshot, runBackup } from './backup-helpers.js';
import { runRestore, type RestoreView } from './restore-helpers.js';
import type { TestApp } from './test-app.js';

/**
 * The provider-neutral part of the restore fidelity proof (docs/restore-fidelity.md): a type's selective
 * restore, the backup after it, the diff of the two backups through the API, the pairing of
 * re-created objects, and the table of docs/restore-fidelity.md. Each provider's module
 * (okta-fidelity.ts, entra-fidelity.ts) brings its restore order, damage and unavoidable
 * differences.
 */

/**
 * Lifetime of the one admin token a round trip uses, in seconds: a recorded org's round trip runs
 * 6 min on a quiet machine and outlasted the default 10-minute token on a busy one.
 */
export const ROUND_TRIP_TOKEN_SECONDS = 3600;

type Json = Record<string, unknown>;
interface Change {
  resourceType: string;
  action: 'added' | 'removed' | 'modified';
  /** a re-created object the diff paired with the one it replaces (docs/diff.md "Re-created objects") */
  recreated?: { previousId: string };
  resource: {
    id: string;
    name: string | null;
    changes?: Array<{ op: string; path: string; value?: unknown }>;
  };
}
/** A record the diff found re-created under a new id and identical to the one it replaces. */
interface RecreatedPair {
  resourceType: string;
  previousId: string;
  id: string;
}
/** A field that differs after the round trip, with its value after (for failure messages). */
export interface Difference {
  type: string;
  path: string;
  /** the JSON Patch operation from the backed-up value to the live one (`add`: the backup lacked it) */
  op: string;
  /** record id after the round trip */
  id?: string;
  now?: unknown;
}

/** A difference a faithful restore cannot avoid: a field (JSON pointer into the record's data) and why. */
export interface Unavoidable {
  path: RegExp;
  why: string;
  /**
   * Only when the backup lacks the field and the provider now answers this value (the default
   * its documentation gives a field a creation leaves out); any other change of it still fails.
   */
  added?: unknown;
}

/** What a provider's round trip knows that the shared harness does not. */
export interface FidelityProvider {
  /** the provider's name in the damage column ("Okta") */
  name: string;
  /** its types in restore order (parents first): the table's row order */
  order: readonly string[];
  /** per type, the differences a faithful restore cannot avoid; anything else fails */
  unavoidable: Partial<Record<string, Unavoidable[]>>;
  /** fields of a record's data, at any depth, new for every re-created object (never compared) */
  serverOwned: ReadonlySet<string>;
  /**
   * What names a record besides its id (the restore's natural key: a brand theme's brand), or
   * null: a backed-up record the restore matched by it, under another id and with nothing to
   * write, is paired with that live record (no restore item names its new id).
   */
  naturalKey?(record: { type: string; id: string; name: string | null; data: Json }): string | null;
  /** Whether an added record (`<type> <id>`) after the round trip is one the provider made itself. */
  madeByProvider(added: string, restored: RestoreView, after: SnapshotReader): Promise<boolean>;
  /**
   * Why a type the restore did not write ("Not restored") is a failure all the same (its
   * definition is missing rather than documented as unwritable), or null.
   */
  unwrittenFails?(type: string): string | null;
}

/** One row of docs/restore-fidelity.md. */
export interface Row {
  type: string;
  damage: string;
  restore: string;
  differences: string;
  /** `lossless`, `documented` (only the differences listed as unavoidable) or `FAILS` */
  result: string;
}

/** One type's round trip after its damage: what the row needs. */
export interface RoundTripStep {
  ctx: TestApp;
  /** an admin's token */
  token: string;
  connectionId: string;
  /** the backup taken before the damage */
  from: BackupDto;
  type: string;
  /** the damage column (describeDamage) */
  damage: string;
  /** what is left to do when the type still fails (expected failures): shown in the result */
  open?: string;
  /**
   * Other types the damage took objects of (an application's deletion takes its service
   * principal): restored with the type, as an admin restoring from the incident would select them.
   */
  with?: readonly string[];
}

/** What went wrong in a round trip: each list must be empty. */
export interface Problems {
  failed: unknown[];
  lost: string[];
  extra: string[];
  undocumented: Difference[];
  /** types not written although their definition does not say the API cannot write them */
  unwritten: string[];
}

/** A round trip's outcome: its row, the backup after it (the next type's start), and its problems. */
export interface RoundTripOutcome {
  row: Row;
  after: BackupDto;
  problems: Problems;
  /** the restore's writes, for failure messages */
  writes: string[];
}

export const DOC = new URL('../../docs/restore-fidelity.md', import.meta.url);

/**
 * One provider's round trips on one org or tenant, type after type: the backup each starts from
 * (the one the previous type's round trip ended with) and the rows of the table.
 */
export class RoundTripRun {
  readonly rows: Row[] = [];
  private before?: BackupDto;
  /** The org changed since `before` without a restore of it (damage whose round trip stopped). */
  private dirty = false;

  constructor(
    private readonly provider: FidelityProvider,
    private readonly ctx: TestApp,
    private readonly token: string,
    private readonly connectionId: string,
  ) {}

  /** Backs the org up: the next round trip starts from it. */
  async backUp(): Promise<BackupDto> {
    this.before = await runBackup(this.ctx, this.token, { connectionId: this.connectionId });
    this.dirty = false;
    return this.before;
  }

  /** The org was damaged: until the type's restore is compared, the next round trip backs up first (`ready`). */
  damaged(): void {
    this.dirty = true;
  }

  /** Backs up again when the last round trip left damage behind (see `damaged`). */
  async ready(): Promise<void> {
    if (this.dirty) await this.backUp();
  }

  /** A type nothing could be done to: its row, nothing restored. */
  untouched(type: string, damage: string): void {
    this.rows.push({ type, damage, restore: 'nothing to restore', differences: '', result: 'lossless' });
  }

  /**
   * After the type's damage: restores it, backs up, diffs and pairs (restoreAndCompare), records
   * its row, and fails the test on any problem.
   */
  async restore(
    type: string,
    damage: string,
    more: Pick<RoundTripStep, 'open' | 'with'> = {},
  ): Promise<void> {
    if (!this.before) throw new Error('backUp() first');
    const outcome = await restoreAndCompare(this.provider, {
      ctx: this.ctx,
      token: this.token,
      connectionId: this.connectionId,
      from: this.before,
      type,
      damage,
      ...more,
    });
    // The org as this type's restore left it is the next type's starting point.
    this.before = outcome.after;
    this.dirty = false;
    this.rows.push(outcome.row);
    expectClean(outcome);
  }
}

/**
 * Restores `step.type` selectively from `step.from` (`POST /api/restore`), backs up again, diffs
 * the two backups (`POST /api/diff`) and pairs removed and added records through the restore's
 * new ids: every difference left must be one of `provider.unavoidable`, every record lost one the
 * API cannot write, every record added one the provider made itself.
 */
async function restoreAndCompare(provider: FidelityProvider, step: RoundTripStep): Promise<RoundTripOutcome> {
  const { ctx, token, from, type } = step;
  const restored = await runRestore(ctx, token, {
    backupId: from.id,
    mode: 'selective',
    resourceTypes: [type, ...(step.with ?? [])],
  });
  return compareAfterRestore(provider, step, restored);
}

/**
 * The comparison half of a round trip, after a restore (`restored`, selective or an undo) from
 * `step.from`: backs up, diffs the two backups through the API and reconciles them as
 * restoreAndCompare does. @returns the outcome, with the differences and lost records by type
 */
export async function compareAfterRestore(
  provider: FidelityProvider,
  step: RoundTripStep,
  restored: RestoreView,
): Promise<RoundTripOutcome & { differences: Difference[]; lost: string[] }> {
  const { ctx, token, from, type } = step;
  const after = await runBackup(ctx, token, { connectionId: step.connectionId });
  const diff = await ctx.http
    .post('/api/diff')
    .set('Authorization', `Bearer ${token}`)
    .send({ fromBackupId: from.id, toBackupId: after.id });
  expect(diff.status).toBe(200);
  const afterSnapshot = await openSnapshot(ctx, after.storage_key);
  const outcome = await reconcile(
    diff.body.changes as Change[],
    (diff.body.summary?.recreated ?? []) as RecreatedPair[],
    restored,
    await openSnapshot(ctx, from.storage_key),
    afterSnapshot,
    provider,
  );
  const extra: string[] = [];
  for (const id of outcome.extra)
    if (!(await provider.madeByProvider(id, restored, afterSnapshot))) extra.push(id);

  const notRestorable = restored.items.filter((item) =>
    String((item.notes as string[])[0]).startsWith('Not restored'),
  );
  const unwrittenTypes = [...new Set(notRestorable.map((item) => item.resourceType))];
  const unwritten = unwrittenTypes.flatMap((t) => {
    const why = provider.unwrittenFails?.(t);
    return why ? [`${t}: ${why}`] : [];
  });
  const problems: Problems = {
    failed: restored.items.filter((item) => item.outcome === 'failed'),
    lost: outcome.lost.filter((id) => !notRestorable.some((item) => id.endsWith(item.resourceId))),
    extra,
    undocumented: outcome.differences.filter(
      (difference) =>
        !(provider.unavoidable[difference.type] ?? []).some((allowed) => isUnavoidable(allowed, difference)),
    ),
    unwritten,
  };
  const clean = Object.values(problems).every((list) => list.length === 0);
  const writes = `${step.with?.length ? `with ${step.with.join(', ')} (the damage took some): ` : ''}${
    restored.restore.status
  }: ${describeWrites(restored)}`;
  return {
    after,
    problems,
    differences: outcome.differences,
    lost: outcome.lost,
    writes: restored.items.map(
      (item) =>
        `${item.action} ${item.resourceType} ${item.resourceId} ${item.outcome} ${String(item.error ?? '')}`,
    ),
    row: {
      type,
      damage: step.damage,
      restore: unwrittenTypes.length
        ? `${writes}; not restored (the API cannot write them): ${unwrittenTypes.join(', ')}`
        : writes,
      differences: [
        ...outcome.differences.map(({ type: t, path }) => `${t} ${path}`),
        ...outcome.lost.map((id) => `lost ${id}`),
      ].join('; '),
      result: !clean
        ? `FAILS${step.open ? ` (open: ${step.open})` : ''}`
        : outcome.differences.length + outcome.lost.length > 0
          ? 'documented'
          : 'lossless',
    },
  };
}

/** Fails the test unless the round trip had no problem; on a failure the restore's writes say what it did. */
export function expectClean({ problems, writes }: Pick<RoundTripOutcome, 'problems' | 'writes'>): void {
  const clean = Object.values(problems).every((list) => list.length === 0);
  expect(clean ? problems : { ...problems, writes }).toEqual({
    failed: [],
    lost: [],
    extra: [],
    undocumented: [],
    unwritten: [],
  });
}

/**
 * Pairs the diff's removed and added records through the restore's new ids (a re-created object
 * and what hangs off it get new record ids), and compares each pair field by field without
 * server-owned fields. @returns the fields that differ, and records lost or extra
 */
async function reconcile(
  changes: Change[],
  recreated: RecreatedPair[],
  restored: RestoreView,
  before: SnapshotReader,
  after: SnapshotReader,
  provider: Pick<FidelityProvider, 'serverOwned' | 'naturalKey'>,
): Promise<{ differences: Difference[]; lost: string[]; extra: string[] }> {
  const serverOwned = provider.serverOwned;
  const ids = new Map<string, string>();
  for (const item of restored.items)
    if (item.newId) ids.set(String(item.resourceId).split(':').pop()!, String(item.newId).split(':').pop()!);
  /** Ids in `text` rewritten to the re-created objects', except `own` (an object's own old id in its own text). */
  // Whole ids, never a JSON key: an object Okta names by a word ("default", an authorization
  // server's id) must not rewrite the fields named by or after it (default, defaultApp).
  const rewrite = (text: string, own?: string) =>
    [...ids].reduce(
      (result, [from, to]) =>
        from === own
          ? result
          : result.replace(new RegExp(`(?<![\\w-])${escapeRegExp(from)}(?![\\w-])(?!":)`, 'g'), to),
      text,
    );
  /** A record's data without its volatile and server-owned fields, at any depth. */
  const comparable = (data: Json) => withoutVolatile(data, serverOwned) as Json;
  const differences: Difference[] = [];
  const lost: string[] = [];
  const added = new Set(
    changes.filter((c) => c.action === 'added').map((c) => `${c.resourceType} ${c.resource.id}`),
  );
  /** The fields of `type` that differ between a backed-up record (ids rewritten) and its live twin. */
  const compare = async (type: string, fromId: string, toId: string) => {
    const from = (await before.findRecord(type, fromId))!.record.data;
    const to = (await after.findRecord(type, toId))!.record.data;
    // A top-level object's own old id may stand in its own text (a hook URL): it is not a reference.
    const own = fromId.includes(':') ? undefined : fromId;
    for (const op of fastJsonPatch.compare(
      comparable(JSON.parse(rewrite(JSON.stringify(from), own))),
      comparable(to),
    ))
      differences.push({
        type,
        path: op.path,
        op: op.op,
        id: toId,
        now: 'value' in op ? op.value : undefined,
      });
  };
  // Objects the restore matched by name under another id (the provider's own, which the restore
  // updates but never re-creates: no item records their new id), by type, parent and name.
  const parentOf = (id: string) => id.split(':').slice(0, -1).join(':');
  const byName = new Map(
    changes
      .filter((c) => c.action === 'added' && c.resource.name)
      .map((c) => [`${c.resourceType} ${parentOf(c.resource.id)} ${c.resource.name}`, c.resource.id]),
  );
  /** The natural key of a record (backed up, with its ids rewritten, or live), or null. */
  const keyOf = async (snapshot: SnapshotReader, type: string, id: string, rewritten: boolean) => {
    const found = await snapshot.findRecord(type, id);
    if (!found || !provider.naturalKey) return null;
    const data = rewritten
      ? (JSON.parse(rewrite(JSON.stringify(found.record.data))) as Json)
      : found.record.data;
    return provider.naturalKey({ type, id: rewritten ? rewrite(id) : id, name: found.record.name, data });
  };
  /** The added record of `type` whose natural key is `key`, if any. */
  const byKey = async (type: string, key: string | null) => {
    if (key === null) return undefined;
    for (const entry of added) {
      const [addedType, addedId] = entry.split(' ');
      if (addedType === type && (await keyOf(after, type, addedId, false)) === key) return addedId;
    }
    return undefined;
  };
  // The pairs the diff itself made (identical ones are no change, the others a modified change
  // under the new id) are compared here all the same, not taken on the diff's word.
  for (const pair of recreated) await compare(pair.resourceType, pair.previousId, pair.id);
  for (const change of changes) {
    if (change.action === 'modified')
      await compare(
        change.resourceType,
        change.recreated?.previousId ?? change.resource.id,
        change.resource.id,
      );
    else if (change.action === 'removed') {
      const rewritten = rewrite(change.resource.id);
      const twin = added.has(`${change.resourceType} ${rewritten}`)
        ? rewritten
        : (byName.get(`${change.resourceType} ${parentOf(rewritten)} ${change.resource.name}`) ??
          (await byKey(
            change.resourceType,
            await keyOf(before, change.resourceType, change.resource.id, true),
          )));
      if (twin !== undefined && added.delete(`${change.resourceType} ${twin}`))
        await compare(change.resourceType, change.resource.id, twin);
      else lost.push(`${change.resourceType} ${change.resource.id}`);
    }
  }
  return { differences, lost, extra: [...added] };
}

function describeWrites(restored: RestoreView): string {
  const { create, update, delete: removed } = restored.restore.totals;
  return `${create} created, ${update} updated${removed ? `, ${removed} deleted` : ''}`;
}

/** How long updateDoc waits for another worker's lock before it gives up, ms. */
const DOC_LOCK_WAIT_MS = 60_000;

/**
 * Rewrites docs/restore-fidelity.md with `change`, holding an exclusive lock file meanwhile: the
 * Okta and Entra fidelity suites run in parallel Jest workers, and each rewrites its own section
 * of the one file, so an unlocked read-change-write could lose another's section.
 * @param change from the doc as it is (or `head` when it is absent or lacks `marker`) to the new doc
 * @throws Error when the lock stays taken DOC_LOCK_WAIT_MS (a run killed while holding it leaves
 *   `docs/restore-fidelity.md.lock`: delete it)
 */
export function updateDoc(head: string, marker: string, change: (doc: string) => string): void {
  const lock = new URL(`${DOC.href}.lock`);
  const deadline = Date.now() + DOC_LOCK_WAIT_MS;
  let held: number | undefined;
  while (held === undefined) {
    try {
      held = openSync(lock, 'wx');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (Date.now() > deadline)
        throw new Error(
          `${fileURLToPath(lock)} has been held for ${DOC_LOCK_WAIT_MS} ms; delete it if no test run holds it`,
        );
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 25);
    }
  }
  try {
    const current = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '';
    writeFileSync(DOC, change(current.includes(marker) ? current : head));
  } finally {
    closeSync(held);
    rmSync(lock, { force: true });
  }
}

/**
 * Replaces (or adds, before the heading `before`, else at the end) the `section` block of `doc`,
 * written between `<!-- section -->` and `<!-- /section -->`.
 */
export function withSection(doc: string, section: string, text: string, before?: string): string {
  const start = `<!-- ${section} -->`;
  const end = `<!-- /${section} -->`;
  const block = `${start}\n${text}\n${end}`;
  const at = doc.indexOf(start);
  if (at >= 0) return doc.slice(0, at) + block + doc.slice(doc.indexOf(end, at) + end.length);
  const where = before === undefined ? -1 : doc.indexOf(before);
  if (where < 0) return `${doc.replace(/\n*$/, '\n\n')}${block}\n`;
  return `${doc.slice(0, where)}${block}\n\n${doc.slice(where)}`;
}

/** Whether `difference` is the one `allowed` documents (its field, and its default when `added`). */
export function isUnavoidable(allowed: Unavoidable, difference: Difference): boolean {
  if (!allowed.path.test(difference.path)) return false;
  if (!('added' in allowed)) return true;
  return difference.op === 'add' && JSON.stringify(difference.now) === JSON.stringify(allowed.added);
}

/** A list item per unavoidable difference: the type, the field's pattern and why. */
export function unavoidableList(unavoidable: FidelityProvider['unavoidable']): string {
  return Object.entries(unavoidable)
    .flatMap(([type, allowed]) =>
      (allowed ?? []).map((entry) => `- \`${type}\` \`${entry.path.source}\`: ${entry.why}`),
    )
    .join('\n');
}

/** The table of rows, in the provider's restore order. */
export function fidelityTable(rows: Row[], order: readonly string[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  return [
    '| type | damage | restore | differences after the round trip | result |',
    '| --- | --- | --- | --- | --- |',
    ...[...rows]
      .sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type))
      .map(
        (row) =>
          `| \`${row.type}\` | ${cell(row.damage)} | ${cell(row.restore)} | ${cell(row.differences) || 'none'} | ${row.result} |`,
      ),
  ].join('\n');
}

/** `text` with the characters a regular expression gives a meaning escaped. */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
