import type { Actor, RequestOrigin } from '@app/common/actor.js';

/**
 * Who did it (DESIGN section 4 "Audit event"): a member (`user`), an integration client acting
 * for the member who created it (`client`, `id` that member), the service itself (`system`: a
 * job's outcome, a sweep) or a backup schedule (`schedule`).
 */
export interface AuditActor {
  type: 'user' | 'client' | 'system' | 'schedule';
  /** The user's id; null for `system` and `schedule`. */
  id: string | null;
  clientId?: string;
}

/** What was acted on: `connection`, `backup`, `restore`, `schedule`, `member`, `invitation`, `client`. */
export interface AuditTarget {
  type: string;
  id: string | null;
}

/**
 * One fact for the audit trail (docs/notifications.md). `action` is a dotted verb (`backup.failed`);
 * `details` are plain facts about the change, never a secret (AuditService refuses keys that
 * name one).
 */
export interface AuditEntry {
  teamId: string;
  actor: AuditActor;
  action: string;
  target: AuditTarget;
  outcome: 'success' | 'failure';
  origin?: RequestOrigin;
  details?: Record<string, unknown>;
}

/** A recorded entry: its id and the instant the database gave it. */
export interface RecordedAuditEvent extends AuditEntry {
  id: string;
  occurredAt: Date;
}

/** The team, actor and origin of an entry made on behalf of an API caller. */
export function byCaller(actor: Actor): Pick<AuditEntry, 'teamId' | 'actor' | 'origin'> {
  return {
    teamId: actor.teamId,
    actor: actor.clientId
      ? { type: 'client', id: actor.userId, clientId: actor.clientId }
      : { type: 'user', id: actor.userId },
    origin: actor.origin,
  };
}

/** Who acted and from where: an API caller (`byCaller`), or the service or a schedule (no origin). */
export type AuditBy = Pick<AuditEntry, 'actor' | 'origin'>;

/** The service itself acting (a job's outcome, a sweep). */
export const BY_SYSTEM: AuditBy = { actor: { type: 'system', id: null } };

/** The entry of `action` on `target` in `teamId`, by `by`. */
export function entryAbout(
  teamId: string,
  target: AuditTarget,
  action: string,
  outcome: AuditEntry['outcome'],
  details: Record<string, unknown>,
  by: AuditBy,
): AuditEntry {
  return { teamId, ...by, action, target, outcome, details };
}

/** Keys a `details` object must never carry, at any depth: a credential would outlive its rotation. */
export const SECRET_KEY = /secret|password|passwd|token|private_?key|credential|authorization|cookie/i;

/**
 * The first key of `details`, at any depth, that names a secret, or undefined.
 * @param details plain JSON values
 */
export function secretKeyIn(details: unknown, path = 'details'): string | undefined {
  if (Array.isArray(details)) {
    for (const [index, item] of details.entries()) {
      const found = secretKeyIn(item, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (details === null || typeof details !== 'object') return undefined;
  for (const [key, value] of Object.entries(details)) {
    if (SECRET_KEY.test(key)) return `${path}.${key}`;
    const found = secretKeyIn(value, `${path}.${key}`);
    if (found) return found;
  }
  return undefined;
}
