import type {
  BackupContext,
  Check,
  CheckOutcome,
  CheckRun,
  Finding,
  RecordSource,
} from './compliance-types.js';
import type { ControlMapping, Framework } from './frameworks/framework-types.js';
import { complianceScore } from './score.js';
import { SERVICE_CHECKS } from './service-checks.js';

/**
 * Version of the check catalogue and framework mappings. Stored results are keyed by it: change
 * it whenever a check, a mapping or a threshold changes, so that old results are recomputed.
 */
export const CATALOGUE_VERSION = '2026.12.2';

/** A framework's verdict on one backup. */
export interface ComplianceReport {
  score: number;
  findings: Finding[];
}

interface Evaluation {
  mapping: ControlMapping;
  check: Check;
  run?: CheckRun;
  /** set when the check could not run on this backup */
  unavailable?: CheckOutcome;
}

function manual(note: string): CheckOutcome {
  return {
    status: 'manual',
    resourceType: '',
    resources: [],
    total: 0,
    pointers: [],
    observed: null,
    expected: null,
    note,
  };
}

/**
 * Runs every control of `framework` on one backup: each mapped check is started with the
 * framework's thresholds, the snapshot's parts the checks read are streamed once each, in the
 * order stored (one record at a time: memory does not grow with the org), a part no run still
 * wants (`CheckRun.skips`) left unread, and each check gives its outcome. A control row whose check key the provider's catalogue does not implement is
 * left out of the report (it is another provider's); a check that reads a type the backup left
 * out is `manual` with a note saying why.
 * @param catalogue the provider's checks (libs/providers/<kind>/compliance)
 * @throws SnapshotIntegrityError (from the source) when the snapshot is altered
 */
export async function runFramework(
  framework: Framework,
  catalogue: readonly Check[],
  source: RecordSource,
  context: BackupContext,
): Promise<ComplianceReport> {
  const byKey = new Map([...SERVICE_CHECKS, ...catalogue].map((check) => [check.key, check]));
  // A row maps a control to one provider's capability: rows of keys this provider has no check
  // for belong to another provider's report (Entra's consent settings are nothing to judge in Okta).
  const rows = framework.controls.filter((mapping) => byKey.has(mapping.check));
  const evaluations: Evaluation[] = rows.map((mapping) => {
    const check = byKey.get(mapping.check)!;
    const missing = check.reads.filter((type) => !source.has(type));
    if (missing.length > 0) return { mapping, check, unavailable: manual(missingNote(check, missing)) };
    return { mapping, check, run: check.start(mapping.params ?? {}, context) };
  });

  for (const type of source.types) {
    const readers = evaluations.filter(
      (e) => e.run?.onRecord && e.check.reads.includes(type) && !e.run.skips?.(type),
    );
    if (readers.length === 0) continue;
    const fields = fieldsRead(
      readers.map((e) => e.check),
      type,
    );
    for await (const records of source.readBatches(type, fields))
      for (const record of records) for (const e of readers) e.run!.onRecord!(record);
  }

  const findings = evaluations.map(({ mapping, check, run, unavailable }): Finding => {
    const { status, ...evidence } = unavailable ?? run!.finish();
    return {
      control: mapping.control,
      status,
      severity: mapping.severity,
      evidence: { backupId: context.backupId, collectedAt: context.collectedAt, ...evidence },
      check: check.id,
      title: check.title,
      requirement: mapping.requirement,
      remediation: check.remediation,
    };
  });
  return { score: complianceScore(findings), findings };
}

/** Why a check cannot run on a backup without `missing`, and what to grant when the check says. */
function missingNote(check: Check, missing: readonly string[]): string {
  const grants = [...new Set(missing.map((type) => check.grants?.[type]).filter((g) => g !== undefined))];
  const grant = grants.length > 0 ? ` Grant ${grants.join(', ')} to collect it.` : '';
  return `The backup does not hold ${missing.join(', ')}.${grant}`;
}

/** The members of `type`'s records the checks read between them; undefined when one reads them whole. */
function fieldsRead(checks: readonly Check[], type: string): string[] | undefined {
  const fields = new Set<string>();
  for (const check of checks) {
    const read = check.fields?.[type];
    if (read === undefined) return undefined;
    for (const field of read) fields.add(field);
  }
  return [...fields];
}
