import type { BackupContext, Check, CheckOutcome, CheckParams } from '@libs/compliance/compliance-types.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import { PolicyBook } from './policy-book.js';

/** The records of the small configuration types a check read, kept whole. */
export class SettingsRecords {
  readonly book = new PolicyBook();
  readonly #byType = new Map<string, ResourceRecord[]>();

  add(record: ResourceRecord): void {
    if (this.book.add(record)) return;
    const list = this.#byType.get(record.type) ?? [];
    list.push(record);
    this.#byType.set(record.type, list);
  }

  of(type: string): ResourceRecord[] {
    return this.#byType.get(type) ?? [];
  }
}

interface SettingsCheckDefinition extends Omit<Check, 'start'> {
  /** Records worth keeping (default all): a check that needs one group out of thousands says so. */
  keep?: (record: ResourceRecord) => boolean;
  evaluate(records: SettingsRecords, params: CheckParams, context: BackupContext): CheckOutcome;
}

/**
 * A check over configuration types that stay small whatever the org's size (policies and
 * rules, authenticators, zones, apps, hooks, trusted origins): their records are kept whole
 * and judged at the end. Never for users, memberships or assignments.
 */
export function settingsCheck(definition: SettingsCheckDefinition): Check {
  const { evaluate, keep, ...check } = definition;
  return {
    ...check,
    start(params, context) {
      const records = new SettingsRecords();
      return {
        onRecord: (record) => {
          if (!keep || keep(record)) records.add(record);
        },
        finish: () => evaluate(records, params, context),
      };
    },
  };
}
