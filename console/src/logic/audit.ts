import type { Schemas } from '../api/client';

/** An audit event's actor (docs/notifications.md "Audit trail"). */
export type AuditActor = Schemas['AuditActor'];

/** The actions the audit trail records (docs/notifications.md "Audit trail", and the API's writers). */
export const AUDIT_ACTIONS = [
  'account.deletion_cancelled',
  'account.deletion_scheduled',
  'account.exported',
  'approval.approved',
  'approval.executed',
  'approval.execution_failed',
  'approval.expired',
  'approval.rejected',
  'approval.requested',
  'approval.settings_changed',
  'backup.completed',
  'backup.deleted',
  'backup.failed',
  'backup.started',
  'compliance.checked',
  'connection.created',
  'connection.deleted',
  'connection.updated',
  'drift.detected',
  'drill.started',
  'export.audit_pack',
  'export.report',
  'restore.completed',
  'restore.failed',
  'restore.partial',
  'restore.previewed',
  'restore.started',
  'schedule.missed',
  'schedule.updated',
  'team.client_revoked',
  'team.invitation_revoked',
  'team.member_invited',
  'team.member_removed',
  'team.member_role_changed',
  'team.ownership_transferred',
] as const;

/** The page sizes offered; the API allows 1 to 500 (default 50). */
export const AUDIT_PAGE_SIZES = ['10', '25', '50', '100'] as const;

/** The filters as the form holds them: `from`/`to` are `datetime-local` values in the reader's zone. */
export interface AuditFilters {
  from: string;
  to: string;
  action: string | null;
  actorId: string;
  targetId: string;
  limit: number;
}

/** The query of `GET /api/audit-events`. */
export interface AuditQuery {
  from?: string;
  to?: string;
  action?: string;
  actorId?: string;
  targetId?: string;
  limit: number;
  after?: string;
}

/**
 * A `datetime-local` value (`YYYY-MM-DDTHH:mm`, the reader's zone) as an ISO 8601 UTC instant,
 * or undefined for an empty or unreadable one.
 */
export function localToIso(value: string): string | undefined {
  if (!value) return undefined;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

/** The API query for `filters` and the page's cursor (`after`: the previous page's `nextAfter`). */
export function auditQuery(filters: AuditFilters, after: string | null): AuditQuery {
  const from = localToIso(filters.from);
  const to = localToIso(filters.to);
  const actorId = filters.actorId.trim();
  const targetId = filters.targetId.trim();
  return {
    limit: filters.limit,
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
    ...(filters.action ? { action: filters.action } : {}),
    ...(actorId ? { actorId } : {}),
    ...(targetId ? { targetId } : {}),
    ...(after ? { after } : {}),
  };
}

/**
 * Keyset paging through the API's opaque cursor: the cursors of the pages opened so far, the
 * first page's being null. The current page is the last; going back drops it, so every page is
 * asked for with the very cursor it was first read with.
 */
export type CursorTrail = Array<string | null>;

/** The trail after opening the next page, whose cursor is the current page's `nextAfter`. */
export function olderPage(trail: CursorTrail, nextAfter: string): CursorTrail {
  return [...trail, nextAfter];
}

/** The trail after going back one page (the first page stays). */
export function newerPage(trail: CursorTrail): CursorTrail {
  return trail.length > 1 ? trail.slice(0, -1) : trail;
}

/** Who acted, as a person reads it: the e-mail address, else the client, else the kind of actor. */
export function actorName(
  actor: AuditActor,
  text: { system: string; schedule: string; client: (id: string) => string },
): string {
  if (actor.email) return actor.email;
  if (actor.client_id) return text.client(actor.client_id);
  if (actor.type === 'schedule') return text.schedule;
  if (actor.type === 'system') return text.system;
  return actor.id ?? actor.type;
}

/**
 * An event's details on one line, as people read them: `key: value` pairs in the API's order,
 * strings bare, other values as JSON; empty for none.
 */
export function detailsText(details: Record<string, unknown>): string {
  return Object.entries(details)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

/** A local calendar day (`YYYY-MM-DD`) of `at`. */
export function localDay(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}

/**
 * The period of an export from two local days, both included: `from` the first day's midnight,
 * `to` the midnight after the last day (an activity report's end is exclusive), `last` the
 * instant before it (the audit pack includes both ends). Undefined when a day is missing or
 * unreadable.
 */
export function exportPeriod(
  firstDay: string,
  lastDay: string,
): { from: string; to: string; last: string } | undefined {
  const start = new Date(`${firstDay}T00:00`);
  const end = new Date(`${lastDay}T00:00`);
  if (!firstDay || !lastDay || Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) return undefined;
  end.setDate(end.getDate() + 1);
  return {
    from: start.toISOString(),
    to: end.toISOString(),
    last: new Date(end.getTime() - 1).toISOString(),
  };
}

/** The audit pack's file name as the API names it: `audit-pack-<from>-<to>.zip`, UTC days (YYYYMMDD). */
export function auditPackFilename(from: string, to: string): string {
  const day = (iso: string) => iso.slice(0, 10).replace(/-/g, '');
  return `audit-pack-${day(from)}-${day(to)}.zip`;
}
