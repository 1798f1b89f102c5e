import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Transaction } from '@app/platform/database/transaction.js';
import type { AuditEntry } from './audit-entry.js';

/** A stored audit event, as read back. */
export interface AuditEventRow {
  id: string;
  /** occurred_at in UTC to the microsecond (`2026-11-27T06:59:01.123456Z`): the keyset cursor keeps it exact. */
  occurredAtText: string;
  occurredAt: Date;
  actorType: AuditEntry['actor']['type'];
  actorId: string | null;
  actorEmail: string | null;
  actorClientId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  outcome: AuditEntry['outcome'];
  ip: string | null;
  requestId: string | null;
  details: Record<string, unknown>;
}

/** Filters of a page of the trail; `after` is the (occurred_at, id) the previous page ended on. */
export interface AuditFilter {
  from?: Date;
  to?: Date;
  action?: string;
  actorId?: string;
  targetId?: string;
  after?: { occurredAt: string; id: string };
  limit: number;
}

const SELECT = `SELECT id, to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "occurredAtText", occurred_at AS "occurredAt",
  actor_type AS "actorType", actor_id AS "actorId", actor_email AS "actorEmail",
  actor_client_id AS "actorClientId", action, target_type AS "targetType", target_id AS "targetId",
  outcome, ip, request_id AS "requestId", details
  FROM audit_events`;

/** The append-only `audit_events` table: inserts and team-scoped reads, never an update. */
@Injectable()
export class AuditRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Inserts `entry` in `tx`; the actor's e-mail is copied from `users` in the same statement.
   * @returns the new row's id and time
   */
  async insert(tx: Transaction, entry: AuditEntry): Promise<{ id: string; occurredAt: Date }> {
    const rows: Array<{ id: string; occurred_at: Date }> = await tx.query(
      `INSERT INTO audit_events (team_id, actor_type, actor_id, actor_email, actor_client_id, action,
         target_type, target_id, outcome, ip, request_id, details)
       VALUES ($1, $2, $3, (SELECT email FROM users WHERE id = $3), $4, $5, $6, $7, $8, $9, $10, $11)
       RETURNING id, occurred_at`,
      [
        entry.teamId,
        entry.actor.type,
        entry.actor.id,
        entry.actor.clientId ?? null,
        entry.action,
        entry.target.type,
        entry.target.id,
        entry.outcome,
        entry.origin?.ip ?? null,
        entry.origin?.requestId ?? null,
        JSON.stringify(entry.details ?? {}),
      ],
    );
    return { id: rows[0].id, occurredAt: rows[0].occurred_at };
  }

  /** The actor of the team's first event about `targetId` (who started a backup or restore), or null. */
  async firstActorOf(teamId: string, targetId: string): Promise<AuditEntry['actor'] | null> {
    const rows: Array<{ type: AuditEntry['actor']['type']; id: string | null; clientId: string | null }> =
      await this.dataSource.query(
        `SELECT actor_type AS type, actor_id AS id, actor_client_id AS "clientId" FROM audit_events
         WHERE team_id = $1 AND target_id = $2 ORDER BY occurred_at, id LIMIT 1`,
        [teamId, targetId],
      );
    const row = rows[0];
    return row ? { type: row.type, id: row.id, ...(row.clientId ? { clientId: row.clientId } : {}) } : null;
  }

  /** A page of the team's events, newest first (index audit_events_team_time). */
  list(teamId: string, filter: AuditFilter): Promise<AuditEventRow[]> {
    const { where, values } = whereOf(teamId, filter);
    values.push(filter.limit);
    return this.dataSource.query(
      `${SELECT} WHERE ${where} ORDER BY occurred_at DESC, id DESC LIMIT $${values.length}`,
      values,
    );
  }

  /** How many of the team's events `filter` matches (past `after`), in one query. */
  async count(teamId: string, filter: Omit<AuditFilter, 'limit'>): Promise<number> {
    const { where, values } = whereOf(teamId, filter);
    const rows: Array<{ n: number }> = await this.dataSource.query(
      `SELECT count(*)::int AS n FROM audit_events WHERE ${where}`,
      values,
    );
    return rows[0].n;
  }
}

/** The WHERE clause of `filter` over the team's events, and its parameters. */
function whereOf(teamId: string, filter: Omit<AuditFilter, 'limit'>): { where: string; values: unknown[] } {
  const where = ['team_id = $1'];
  const values: unknown[] = [teamId];
  const add = (sql: (n: string) => string, value: unknown): void => {
    values.push(value);
    where.push(sql(`$${values.length}`));
  };
  if (filter.from) add((n) => `occurred_at >= ${n}`, filter.from);
  if (filter.to) add((n) => `occurred_at < ${n}`, filter.to);
  if (filter.action) add((n) => `action = ${n}`, filter.action);
  if (filter.actorId) add((n) => `actor_id = ${n}`, filter.actorId);
  if (filter.targetId) add((n) => `target_id = ${n}`, filter.targetId);
  if (filter.after) {
    values.push(filter.after.occurredAt, filter.after.id);
    where.push(`(occurred_at, id) < ($${values.length - 1}::timestamptz, $${values.length}::uuid)`);
  }
  return { where: where.join(' AND '), values };
}
