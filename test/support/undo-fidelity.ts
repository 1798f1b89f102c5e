import { expect } from '@jest/globals';
import type { BackupDto } from '@app/backups/dto/backup.dto.js';
import {
  compareAfterRestore,
  expectClean,
  fidelityTable,
  updateDoc,
  withSection,
  type FidelityProvider,
  type Problems,
  type Row,
} from './restore-fidelity.js';
import { openSnapshot } from './backup-helpers.js';
import { runRestore, type RestoreView } from './restore-helpers.js';
import type { TestApp } from './test-app.js';

/**
 * The undo half of the fidelity proof (docs/restore-fidelity.md "Undo since a clean point"): after
 * damage across every type at once, one undo since the clean backup (`POST /api/restore` with
 * `mode: 'undo'`), a backup after it, the diff of the clean backup with it, and per type the same
 * reconciliation as the restore table (restore-fidelity.ts): re-created objects paired through
 * the undo's new ids, only the provider's unavoidable differences allowed. Each provider's module
 * brings its damage.
 */

/**
 * How long an org's setup, damage, undo and comparison may take, ms: one Jest hook runs them all,
 * about a minute on a quiet machine for the Entra tenant, several on a loaded one.
 */
export const SETUP_TIMEOUT_MS = 900_000;

/** What the damage did to one type, for its row. */
export interface TypeDamage {
  type: string;
  /** the damage column: what was deleted, changed and added, or why not */
  damage: string;
  /** the record id of the object added, which the undo must delete */
  added?: string | null;
}

/** One undo's outcome: a row and the problems of each type, and what a second undo did. */
export interface UndoOutcome {
  rows: Row[];
  problems: Map<string, Problems>;
  /** the undo (for failure messages) */
  undone: RestoreView;
  /** the same undo run again */
  rerun: RestoreView;
}

/**
 * Undoes everything since `clean` (one restore of mode `undo`, no filter), backs up, diffs and
 * reconciles (compareAfterRestore), splits the problems by type, then runs the same undo again.
 * @param damaged per type, in the table's order, what its damage did
 */
export async function undoSinceClean(
  provider: FidelityProvider,
  run: { ctx: TestApp; token: string; connectionId: string; clean: BackupDto },
  damaged: readonly TypeDamage[],
): Promise<UndoOutcome> {
  const { ctx, token, connectionId, clean } = run;
  const undone = await runRestore(ctx, token, { backupId: clean.id, mode: 'undo' });
  const outcome = await compareAfterRestore(
    provider,
    { ctx, token, connectionId, from: clean, type: 'undo', damage: '' },
    undone,
  );
  const startsWith = (type: string) => (entry: string) => entry.startsWith(`${type} `);
  // An added object still there is left, even of a type the provider makes objects of itself.
  const after = await openSnapshot(ctx, outcome.after.storage_key);
  const left = new Set<string>();
  for (const { type, added } of damaged)
    if (added && (await after.findRecord(type, added))) left.add(`${type} ${added}`);
  const problems = new Map<string, Problems>();
  const rows = damaged.map(({ type, damage }): Row => {
    const all = outcome.problems;
    const own: Problems = {
      failed: (all.failed as RestoreView['items']).filter((item) => item.resourceType === type),
      lost: all.lost.filter(startsWith(type)),
      extra: [...new Set([...all.extra, ...left])].filter(startsWith(type)),
      undocumented: all.undocumented.filter((difference) => difference.type === type),
      unwritten: all.unwritten.filter((entry) => entry.startsWith(`${type}:`)),
    };
    problems.set(type, own);
    const differences = [
      ...outcome.differences.filter((difference) => difference.type === type).map(({ path }) => path),
      ...outcome.lost.filter(startsWith(type)).map((id) => `lost ${id.slice(type.length + 1)}`),
      ...own.extra.map((id) => `left ${id.slice(type.length + 1)}`),
    ];
    const clean = Object.values(own).every((list) => list.length === 0);
    return {
      type,
      damage,
      restore: undoWrites(undone, type),
      differences: differences.join('; '),
      result: !clean ? 'FAILS' : differences.length > 0 ? 'documented' : 'lossless',
    };
  });
  const rerun = await runRestore(ctx, token, { backupId: clean.id, mode: 'undo' });
  return { rows, problems, undone, rerun };
}

/** The undo's writes of one type: "2 re-created, 1 put back, 1 deleted", failures counted apart. */
function undoWrites(undone: RestoreView, type: string): string {
  const items = undone.items.filter((item) => item.resourceType === type);
  const count = (action: string) =>
    items.filter((item) => item.action === action && item.outcome === 'ok').length;
  const failed = items.filter((item) => item.outcome === 'failed').length;
  const done = [
    [count('create'), 're-created'],
    [count('update'), 'put back'],
    [count('delete'), 'deleted'],
    [failed, 'failed'],
  ]
    .filter(([n]) => Number(n) > 0)
    .map(([n, what]) => `${n} ${what}`);
  return done.length ? done.join(', ') : 'nothing to undo';
}

/** Fails the test unless the type came back lossless or with documented differences only. */
export function expectTypeUndone(outcome: UndoOutcome, type: string): void {
  expectClean({
    problems: outcome.problems.get(type)!,
    writes: outcome.undone.items
      .filter((item) => item.resourceType === type)
      .map((item) => `${item.action} ${item.resourceId} ${item.outcome} ${String(item.error ?? '')}`),
  });
}

/**
 * For an open type whose undo fails in some runs only (the order of concurrent writes decides):
 * passes when the type came back clean, or failed only in the way its open reason names (records
 * of the type lost, or fields of it that differ at `paths`), and fails on anything else.
 */
export function expectTypeUndoneOrKnownFailure(
  outcome: UndoOutcome,
  type: string,
  known: { lost?: boolean; paths?: readonly RegExp[] },
): void {
  const problems = outcome.problems.get(type)!;
  expect({
    failed: problems.failed,
    lost: known.lost ? problems.lost.filter((id) => !id.startsWith(`${type} `)) : problems.lost,
    extra: problems.extra,
    undocumented: problems.undocumented.filter(
      (difference) => !(difference.type === type && known.paths?.some((path) => path.test(difference.path))),
    ),
    unwritten: problems.unwritten,
  }).toEqual({ failed: [], lost: [], extra: [], undocumented: [], unwritten: [] });
}

/** Fails the test unless the second undo wrote nothing (docs/restore.md: running it again changes nothing). */
export function expectRerunWritesNothing(outcome: UndoOutcome): void {
  const { restore, items } = outcome.rerun;
  expect({
    status: restore.status,
    totals: restore.totals,
    writes: items
      .filter((item) => item.action !== 'skip' || item.outcome !== 'ok')
      .map(
        (item) =>
          `${item.action} ${item.resourceType} ${item.resourceId} ${item.outcome} ${String(item.error ?? '')}`,
      ),
  }).toEqual({
    status: 'completed',
    totals: expect.objectContaining({ create: 0, update: 0, delete: 0 }),
    writes: [],
  });
}

/**
 * Writes one org's "Undo since a clean point" section (`undo:<section>`) into
 * docs/restore-fidelity.md, at its end when new: `title` its heading, `intro` what was damaged
 * and how it was undone, then the table of `rows` in `order` (a failing type still `open` says
 * what is left to do).
 */
export function writeUndoSection(
  section: string,
  title: string,
  intro: string,
  rows: Row[],
  order: readonly string[],
  open: Partial<Record<string, string>> = {},
): void {
  const shown = rows.map((row) =>
    row.result === 'FAILS' && open[row.type] ? { ...row, result: `FAILS (open: ${open[row.type]})` } : row,
  );
  const text = [`## Undo since a clean point: ${title}`, '', intro, '', fidelityTable(shown, order)].join(
    '\n',
  );
  updateDoc('# Restore fidelity\n', '# Restore fidelity', (doc) => withSection(doc, `undo:${section}`, text));
}
