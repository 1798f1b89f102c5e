import type { Check, CheckOutcome, CheckParams } from '@libs/compliance/compliance-types.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';

/** A backup's facts for a check run in a unit spec. */
export const CONTEXT = {
  backupId: 'b-1',
  collectedAt: '2026-06-01T00:00:00.000Z',
  previousBackupAt: null,
  lastRestoreAt: null,
};

/** A record of `type`. */
export function record(
  type: string,
  id: string,
  data: Record<string, unknown>,
  name: string | null = null,
): ResourceRecord {
  return { type, id, name, data };
}

/** Runs one check on `records` (in the order given) as the engine does, with `params`. */
export function runCheck(
  check: Check,
  records: readonly ResourceRecord[],
  params: CheckParams = {},
): CheckOutcome {
  const run = check.start(params, CONTEXT);
  for (const r of records) if (check.reads.includes(r.type)) run.onRecord?.(r);
  return run.finish();
}

/** The check of `catalogue` with `id`. @throws Error when there is none */
export function checkById(catalogue: readonly Check[], id: string): Check {
  const found = catalogue.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
}
