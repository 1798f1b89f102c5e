import type { Schemas } from '../api/client';
import { SEVERITIES } from './changes';

export type Finding = Schemas['ComplianceFinding'];
export type FindingStatus = Finding['status'];
export type Framework = Schemas['ComplianceCheckDto']['framework'];
export type AuditEvent = Schemas['AuditEvent'];

/** The six frameworks in the order docs/compliance.md lists them. */
export const FRAMEWORKS: readonly Framework[] = [
  'soc2',
  'hipaa',
  'pci_dss',
  'nist',
  'iso27001',
  'cis_controls',
];

/** Statuses in reading order: what needs action first (docs/compliance.md "Findings"). */
export const STATUS_ORDER: readonly FindingStatus[] = ['fail', 'warning', 'pass', 'manual', 'not_applicable'];

/**
 * The findings in reading order: by status (STATUS_ORDER: failed first), then severity (critical
 * first), then control id (numeric aware: 8.3.6 before 8.3.10). A new array; the input is left as is.
 */
export function orderFindings(findings: readonly Finding[]): Finding[] {
  const collator = new Intl.Collator('en', { numeric: true });
  return [...findings].sort(
    (a, b) =>
      STATUS_ORDER.indexOf(a.status) - STATUS_ORDER.indexOf(b.status) ||
      SEVERITIES.indexOf(a.severity) - SEVERITIES.indexOf(b.severity) ||
      collator.compare(a.control, b.control) ||
      collator.compare(a.check, b.check),
  );
}

/** How many findings have each status (every status present, 0 where none). */
export function countByStatus(findings: readonly Finding[]): Record<FindingStatus, number> {
  const counts = Object.fromEntries(STATUS_ORDER.map((status) => [status, 0])) as Record<
    FindingStatus,
    number
  >;
  for (const finding of findings) counts[finding.status] += 1;
  return counts;
}

/**
 * A value read from a backup (evidence `observed`/`expected`, a resource's `observed`) as text:
 * strings as they are, null as "—", anything else as compact JSON (`{"minLength":8}`).
 */
export function formatEvidenceValue(value: unknown): string {
  if (value === null || value === undefined) return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** One compliance check run as the audit trail records it (`compliance.checked`). */
export interface ComplianceRun {
  id: string;
  at: string;
  framework: string;
  score: number | null;
  /** The backup judged (the event's target), null when the trail does not name it. */
  backupId: string | null;
  connectionId: string | null;
  /** `computed` or `stored` (served from the stored result); null for a check run as a job. */
  servedFrom: string | null;
  /** Who asked: an e-mail, a client id, or null for the service (a queued check's end). */
  by: string | null;
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * The compliance check runs among audit events (action `compliance.checked`; docs/compliance.md
 * "Stored results and the audit trail"): a check answered in the request targets the backup and
 * names the connection, framework, score and `served_from` in its details; one run as a job
 * targets the `compliance_check` and names the backup in `backup_id`. Other actions are skipped.
 */
export function complianceRuns(events: readonly AuditEvent[]): ComplianceRun[] {
  return events
    .filter((event) => event.action === 'compliance.checked')
    .map((event) => ({
      id: event.id,
      at: event.occurred_at,
      framework: text(event.details.framework) ?? '',
      score: typeof event.details.score === 'number' ? event.details.score : null,
      backupId: event.target.type === 'backup' ? event.target.id : text(event.details.backup_id),
      connectionId: text(event.details.connection_id),
      servedFrom: text(event.details.served_from),
      by: event.actor.email ?? event.actor.client_id ?? null,
    }));
}
