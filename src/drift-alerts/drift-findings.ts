import type { ResourceChange } from '@app/diff/snapshot-diff.js';
import { SEVERITIES, type Severity } from '@libs/diff/change-facts.js';

/** Severities that raise `drift.detected` (issue 25 "Drift alerts"). */
const ALERTING: ReadonlySet<Severity> = new Set(['critical', 'high']);

/** How many changes an alert lists. */
export const TOP_CHANGES = 5;

/** One change as an alert lists it: what, how, and the severity rule that rated it (docs/severity.md). */
export interface DriftChange {
  resource_type: string;
  action: ResourceChange['action'];
  resource_id: string;
  name: string | null;
  severity: Severity;
  rule: string;
}

/** What `drift.detected` says of a diff: counts by severity, the top changes, a one-line summary. */
export interface DriftFindings {
  by_severity: Record<Severity, number>;
  top_changes: DriftChange[];
  summary: string;
}

/**
 * The drift findings of a diff between a connection's previous and latest backups, or null when
 * no change is `high` or `critical`. Top changes are the most severe first, then in diff order.
 */
export function driftFindings(changes: readonly ResourceChange[]): DriftFindings | null {
  const bySeverity = Object.fromEntries(SEVERITIES.map((severity) => [severity, 0])) as Record<
    Severity,
    number
  >;
  for (const change of changes) bySeverity[change.severity] += 1;
  const alerting = changes.filter((change) => ALERTING.has(change.severity));
  if (alerting.length === 0) return null;
  const rank = (severity: Severity): number => SEVERITIES.indexOf(severity);
  const top = [...alerting]
    .sort((a, b) => rank(a.severity) - rank(b.severity))
    .slice(0, TOP_CHANGES)
    .map((change): DriftChange => ({
      resource_type: change.resourceType,
      action: change.action,
      resource_id: change.resource.id,
      name: change.resource.name,
      severity: change.severity,
      rule: change.rule,
    }));
  const counts = SEVERITIES.filter((severity) => ALERTING.has(severity) && bySeverity[severity] > 0)
    .map((severity) => `${bySeverity[severity]} ${severity}`)
    .join(', ');
  const named = top.map(
    (change) => `${change.rule} (${change.resource_type} ${change.name ?? change.resource_id})`,
  );
  return { by_severity: bySeverity, top_changes: top, summary: `${counts}: ${named.join('; ')}` };
}
