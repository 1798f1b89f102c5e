import { Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type { Actor } from '@app/common/actor.js';
import { ValidationError } from '@app/common/errors.js';
import { type Transaction, TransactionRunner } from '@app/platform/database/transaction.js';
import { type AuditActor, type AuditEntry, type RecordedAuditEvent, secretKeyIn } from './audit-entry.js';
import { type AuditEventRow, AuditRepository } from './audit.repository.js';
import type { AuditEventDto } from './dto/audit-event.dto.js';
import type { ListAuditEventsQuery } from './dto/list-audit-events.query.js';

/**
 * Work another feature does in the transaction of each recorded event (enqueueing the
 * notification fan-out, the drift check): it commits with the event or not at all.
 */
export type AuditFollowUp = (tx: Transaction, event: RecordedAuditEvent) => Promise<void>;

/**
 * The audit trail (docs/notifications.md): the one way every feature records what it changed. The event is
 * inserted in the transaction of the change (`audited`, or `record` inside a transaction the
 * caller opened), so a crash cannot leave one without the other; follow-ups registered with
 * `onRecorded` run in that transaction too. The table refuses UPDATE and DELETE (migration
 * CreateAuditEvents).
 */
@Injectable()
export class AuditService {
  private readonly followUps: AuditFollowUp[] = [];

  constructor(
    private readonly events: AuditRepository,
    private readonly transactions: TransactionRunner,
  ) {}

  /** Registers work to run in the transaction of every event recorded from now on. */
  onRecorded(followUp: AuditFollowUp): void {
    this.followUps.push(followUp);
  }

  /**
   * Runs `change` in a new transaction and records the entries `describe` makes of its result in
   * the same one; `describe` returning null (or none) records nothing (the change did not happen).
   * @returns what `change` returned
   * @throws whatever `change` throws (nothing is recorded, nothing committed); Error when the
   *   entry's details name a secret
   */
  audited<T>(
    change: (tx: Transaction) => Promise<T>,
    describe: (result: T) => AuditEntry | AuditEntry[] | null,
  ): Promise<T> {
    return this.transactions.run(async (tx) => {
      const result = await change(tx);
      for (const entry of [describe(result) ?? []].flat()) await this.record(tx, entry);
      return result;
    });
  }

  /** Records a fact that changed no row (a schedule slot that got no backup) in its own transaction. */
  recordAlone(entry: AuditEntry): Promise<RecordedAuditEvent> {
    return this.transactions.run((tx) => this.record(tx, entry));
  }

  /**
   * Records `entry` in the open transaction `tx`, then runs the follow-ups in it.
   * @throws Error when `entry.details` carries a key naming a secret (a programming error)
   */
  async record(tx: Transaction, entry: AuditEntry): Promise<RecordedAuditEvent> {
    const secret = secretKeyIn(entry.details);
    if (secret) throw new Error(`Audit details must not carry a secret (${secret})`);
    const event = { ...entry, ...(await this.events.insert(tx, entry)) };
    for (const followUp of this.followUps) await followUp(tx, event);
    return event;
  }

  /** Who started the work `targetId` names (its first event's actor), or null when nothing was recorded. */
  firstActorOf(teamId: string, targetId: string): Promise<AuditActor | null> {
    return this.events.firstActorOf(teamId, targetId);
  }

  /**
   * A page of the caller's team's trail, newest first (GET /api/audit-events).
   * @throws ValidationError for an `after` that is not a `nextAfter` this endpoint gave
   */
  async list(
    actor: Actor,
    query: ListAuditEventsQuery,
  ): Promise<{ events: AuditEventDto[]; nextAfter: string | null }> {
    const rows = await this.events.list(actor.teamId, {
      from: query.from,
      to: query.to,
      action: query.action,
      actorId: query.actorId,
      targetId: query.targetId,
      after: query.after === undefined ? undefined : decodeCursor(query.after),
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      events: page.map(toAuditEventDto),
      nextAfter: rows.length > query.limit && last ? encodeCursor(last) : null,
    };
  }

  /**
   * How many of the caller's team's events fall in [`from`, `to`) past the cursor `after` (a
   * `nextAfter` of `list`), counted by the database in one query.
   * @throws ValidationError for an `after` that is not a `nextAfter` this service gave
   */
  count(actor: Actor, period: { from: Date; to: Date; after?: string }): Promise<number> {
    return this.events.count(actor.teamId, {
      from: period.from,
      to: period.to,
      after: period.after === undefined ? undefined : decodeCursor(period.after),
    });
  }
}

function toAuditEventDto(row: AuditEventRow): AuditEventDto {
  return {
    id: row.id,
    occurred_at: row.occurredAt.toISOString(),
    actor: {
      type: row.actorType,
      id: row.actorId,
      ...(row.actorEmail ? { email: row.actorEmail } : {}),
      ...(row.actorClientId ? { client_id: row.actorClientId } : {}),
    },
    action: row.action,
    target: { type: row.targetType, id: row.targetId },
    outcome: row.outcome,
    ip: row.ip,
    request_id: row.requestId,
    details: row.details,
  };
}

const MICROSECOND_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** The cursor after `row`: its exact occurred_at text and id, base64url JSON (opaque to clients). */
function encodeCursor(row: AuditEventRow): string {
  return Buffer.from(JSON.stringify([row.occurredAtText, row.id])).toString('base64url');
}

function decodeCursor(cursor: string): { occurredAt: string; id: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    Array.isArray(parsed) &&
    parsed.length === 2 &&
    typeof parsed[0] === 'string' &&
    MICROSECOND_INSTANT.test(parsed[0]) &&
    typeof parsed[1] === 'string' &&
    isUUID(parsed[1])
  ) {
    return { occurredAt: parsed[0], id: parsed[1] };
  }
  throw new ValidationError('after is not a cursor this endpoint returned', [
    { field: 'after', message: 'unknown cursor' },
  ]);
}
