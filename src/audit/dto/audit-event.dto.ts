import type { AuditActor } from '@app/audit/audit-entry.js';

/** An audit event as GET /api/audit-events returns it (DESIGN section 4 "Audit event"). */
export interface AuditEventDto {
  id: string;
  occurred_at: string;
  actor: { type: AuditActor['type']; id: string | null; email?: string; client_id?: string };
  action: string;
  target: { type: string; id: string | null };
  outcome: 'success' | 'failure';
  ip: string | null;
  request_id: string | null;
  details: Record<string, unknown>;
}
