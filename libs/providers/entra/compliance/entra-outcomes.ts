import type {
  BackupContext,
  Check,
  CheckOutcome,
  CheckParams,
  EvidenceResource,
} from '@libs/compliance/compliance-types.js';
import { ResourceSample } from '@libs/compliance/resource-sample.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';
import {
  ENTRA_TYPE_DEFINITIONS,
  type EntraResourceType,
} from '@libs/providers/entra/entra-resource-catalog.js';

/** The configuration records a check read, kept whole, by type. */
export class EntraRecords {
  readonly #byType = new Map<string, ResourceRecord[]>();

  add(record: ResourceRecord): void {
    const list = this.#byType.get(record.type) ?? [];
    list.push(record);
    this.#byType.set(record.type, list);
  }

  of(type: EntraResourceType): ResourceRecord[] {
    return this.#byType.get(type) ?? [];
  }

  /** The one record of a singleton type (authorization policy...), if the backup holds it. */
  one(type: EntraResourceType): ResourceRecord | undefined {
    return this.of(type)[0];
  }
}

/** An Entra check: which CISA SCuBA (or CIS Microsoft 365) policy it implements. */
export interface EntraCheck extends Check {
  /** the baseline policy id, e.g. `MS.AAD.1.1v1`, or the CIS Microsoft 365 recommendation */
  policy: string;
}

interface ConfigCheckDefinition extends Omit<EntraCheck, 'start' | 'grants' | 'reads'> {
  reads: readonly EntraResourceType[];
  evaluate(records: EntraRecords, params: CheckParams, context: BackupContext): CheckOutcome;
}

/** The Graph application permission that collects each type (the resource catalogue's). */
export function grantsOf(types: readonly EntraResourceType[]): Partial<Record<string, string>> {
  return Object.fromEntries(types.map((type) => [type, ENTRA_TYPE_DEFINITIONS[type].permission]));
}

/**
 * A check over Entra configuration types that stay small whatever the tenant's size (policies,
 * domains, method configurations): records kept whole and judged at the end. A backup without
 * one of `reads` gives `manual` naming the permission that collects it.
 */
export function configCheck(definition: ConfigCheckDefinition): EntraCheck {
  const { evaluate, ...check } = definition;
  return {
    ...check,
    grants: grantsOf(check.reads),
    start(params, context) {
      const records = new EntraRecords();
      return { onRecord: (record) => records.add(record), finish: () => evaluate(records, params, context) };
    },
  };
}

/**
 * A check whose evidence no Entra backup holds (Graph v1.0 has no API for it, or the backup does
 * not read it): always `manual`, saying why and what would provide it.
 */
export function outsideBackup(
  definition: Omit<EntraCheck, 'start' | 'reads'> & { resourceType: string; note: string },
): EntraCheck {
  const { resourceType, note, ...check } = definition;
  return { ...check, reads: [], start: () => ({ finish: () => manualOutcome(resourceType, note) }) };
}

/** A `manual` outcome with its reason. */
export function manualOutcome(resourceType: string, note: string): CheckOutcome {
  return {
    status: 'manual',
    resourceType,
    resources: [],
    total: 0,
    pointers: [],
    observed: null,
    expected: null,
    note,
  };
}

/** A record as evidence, with the value read from it. */
export function evidenceOf(
  record: Pick<ResourceRecord, 'id' | 'name'>,
  observed?: unknown,
): EvidenceResource {
  return observed === undefined
    ? { id: record.id, name: record.name }
    : { id: record.id, name: record.name, observed };
}

/** The outcome of one setting compared with the value the baseline expects. */
export function settingOutcome(
  record: ResourceRecord | undefined,
  resourceType: EntraResourceType,
  pointers: string[],
  observed: unknown,
  expected: unknown,
  ok: boolean,
  note?: string,
): CheckOutcome {
  if (!record)
    return manualOutcome(
      resourceType,
      `The backup holds no ${resourceType} record: grant ${ENTRA_TYPE_DEFINITIONS[resourceType].permission} and back up again.`,
    );
  return {
    status: ok ? 'pass' : 'fail',
    resourceType,
    resources: [evidenceOf(record, observed)],
    total: 1,
    pointers,
    observed,
    expected,
    ...(note === undefined ? {} : { note }),
  };
}

/** The outcome of a search for offending resources: fail when any, else pass. */
export function offendingOutcome(
  resourceType: string,
  pointers: string[],
  expected: unknown,
  sample: ResourceSample,
  observed: Record<string, unknown> = {},
): CheckOutcome {
  return {
    status: sample.total > 0 ? 'fail' : 'pass',
    resourceType,
    resources: sample.items,
    total: sample.total,
    pointers,
    observed: { offending: sample.total, ...observed },
    expected,
  };
}

/** A member of a JSON object, or undefined. */
export function member(object: unknown, key: string): unknown {
  return object !== null && typeof object === 'object' ? (object as Record<string, unknown>)[key] : undefined;
}

/** A JSON array of strings (empty when absent or null). */
export function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
