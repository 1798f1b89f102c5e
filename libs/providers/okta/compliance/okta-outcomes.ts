import type { CheckOutcome, CheckParams, EvidenceResource } from '@libs/compliance/compliance-types.js';
import { ResourceSample } from '@libs/compliance/resource-sample.js';
import type { ResourceRecord } from '@libs/records/resource-record.js';

/** One resource a check judged, with the value it read and whether it meets the threshold. */
export interface Judged {
  record: Pick<ResourceRecord, 'id' | 'name'>;
  observed: unknown;
  ok: boolean;
}

/**
 * The outcome of a check that judges each resource of a kind (policies, rules, zones...): fail
 * when any misses the threshold, listing those; pass otherwise, listing every one judged;
 * not_applicable (with `none` as the note) when there was nothing to judge.
 */
export function judgeEach(
  resourceType: string,
  pointers: string[],
  expected: unknown,
  judged: readonly Judged[],
  none: string,
): CheckOutcome {
  if (judged.length === 0)
    return {
      status: 'not_applicable',
      resourceType,
      resources: [],
      total: 0,
      pointers,
      observed: null,
      expected,
      note: none,
    };
  const failing = judged.filter((j) => !j.ok);
  const sample = new ResourceSample();
  for (const j of failing.length > 0 ? failing : judged) sample.add(j.record.id, j.record.name, j.observed);
  return {
    status: failing.length > 0 ? 'fail' : 'pass',
    resourceType,
    resources: sample.items,
    total: sample.total,
    pointers,
    observed: { judged: judged.length, failing: failing.length },
    expected,
  };
}

/** The outcome of a check that looks for offending resources: fail (or `status`) when any, else pass. */
export function offenders(
  resourceType: string,
  pointers: string[],
  expected: unknown,
  sample: ResourceSample,
  observed: Record<string, unknown> = {},
  status: 'fail' | 'warning' = 'fail',
): CheckOutcome {
  return {
    status: sample.total > 0 ? status : 'pass',
    resourceType,
    resources: sample.items,
    total: sample.total,
    pointers,
    observed: { offending: sample.total, ...observed },
    expected,
  };
}

/** A check the backup cannot answer: what Okta holds outside the snapshot. */
export function notInBackup(
  resourceType: string,
  note: string,
  resources: EvidenceResource[] = [],
): CheckOutcome {
  return {
    status: 'manual',
    resourceType,
    resources,
    total: resources.length,
    pointers: [],
    observed: null,
    expected: null,
    note,
  };
}

/** A numeric parameter (framework thresholds are numbers unless said otherwise). */
export function num(params: CheckParams, name: string): number {
  return Number(params[name]);
}
