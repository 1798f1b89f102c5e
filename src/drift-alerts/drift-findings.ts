import type { ResourceChange } from '@app/diff/snapshot-diff.js';
import { SEVERITIES, type Severity } from '@libs/diff/change-facts.js';

/** Severities that raise `drift.detected` (docs/notifications.md). */
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
  const tally = new DriftTally();
  for (const change of changes) tally.add(change);
  return tally.findings();
}

const ACTION_ORDER: Record<ResourceChange['action'], number> = { removed: 0, added: 1, modified: 2 };

/**
 * `driftFindings` folded over changes as a diff yields them (`forEachChange`: index shard by index
 * shard, types in order), holding counts and TOP_CHANGES changes, never the diff: a backup taken
 * after 100,000 users were deleted differs from the one before by over a million records.
 * Diff order is the diff's: type (in the order changes of each first came), then removed, added,
 * modified, then by id.
 */
export class DriftTally {
  private readonly bySeverity = Object.fromEntries(SEVERITIES.map((severity) => [severity, 0])) as Record<
    Severity,
    number
  >;
  private readonly typeOrder = new Map<string, number>();
  private top: Array<{ change: DriftChange; type: number; action: number }> = [];

  add(change: ResourceChange): void {
    this.bySeverity[change.severity] += 1;
    if (!this.typeOrder.has(change.resourceType))
      this.typeOrder.set(change.resourceType, this.typeOrder.size);
    if (!ALERTING.has(change.severity)) return;
    this.top.push({
      change: {
        resource_type: change.resourceType,
        action: change.action,
        resource_id: change.resource.id,
        name: change.resource.name,
        severity: change.severity,
        rule: change.rule,
      },
      type: this.typeOrder.get(change.resourceType) as number,
      action: ACTION_ORDER[change.action],
    });
    if (this.top.length >= TOP_CHANGES * 20) this.trim();
  }

  findings(): DriftFindings | null {
    this.trim();
    if (this.top.length === 0) return null;
    const top = this.top.map((entry) => entry.change);
    const counts = SEVERITIES.filter((severity) => ALERTING.has(severity) && this.bySeverity[severity] > 0)
      .map((severity) => `${this.bySeverity[severity]} ${severity}`)
      .join(', ');
    const named = top.map(
      (change) => `${change.rule} (${change.resource_type} ${change.name ?? change.resource_id})`,
    );
    return {
      by_severity: { ...this.bySeverity },
      top_changes: top,
      summary: `${counts}: ${named.join('; ')}`,
    };
  }

  /** Keeps the TOP_CHANGES most severe, then first in diff order. */
  private trim(): void {
    const rank = (severity: Severity): number => SEVERITIES.indexOf(severity);
    this.top = this.top
      .sort(
        (a, b) =>
          rank(a.change.severity) - rank(b.change.severity) ||
          a.type - b.type ||
          a.action - b.action ||
          (a.change.resource_id < b.change.resource_id
            ? -1
            : a.change.resource_id > b.change.resource_id
              ? 1
              : 0),
      )
      .slice(0, TOP_CHANGES);
  }
}
