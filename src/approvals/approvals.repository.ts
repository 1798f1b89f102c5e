import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { type FindOptionsWhere, type QueryDeepPartialEntity, Repository } from 'typeorm';
import { type Transaction, within } from '@app/platform/database/transaction.js';
import { ApprovalEntity, type ApprovalStatus } from './approval.entity.js';

/** The columns a new request sets; the rest start empty (`pending`). */
export type NewApproval = Omit<
  ApprovalEntity,
  'status' | 'createdAt' | 'decidedBy' | 'decidedAt' | 'reason' | 'executedAt' | 'result' | 'error'
>;

/** A decision on a pending request: who took it, when, and the reason given. */
export interface Decision {
  by: string;
  at: Date;
  reason: string | null;
}

/**
 * Team-scoped access to `approvals`; only this class touches the table. Every transition is one
 * conditional UPDATE (`WHERE status = ...`) so that of two concurrent decisions one wins and the
 * other changes nothing (PostgreSQL re-checks the WHERE of a row another transaction updated,
 * READ COMMITTED, https://www.postgresql.org/docs/current/transaction-iso.html#XACT-READ-COMMITTED).
 */
@Injectable()
export class ApprovalsRepository {
  constructor(@InjectRepository(ApprovalEntity) private readonly rows: Repository<ApprovalEntity>) {}

  async insert(approval: NewApproval, tx?: Transaction): Promise<ApprovalEntity> {
    // jsonb columns take any JSON object; TypeORM's deep-partial type cannot say so.
    await within(this.rows, tx).insert({
      ...approval,
      status: 'pending',
    } as QueryDeepPartialEntity<ApprovalEntity>);
    return within(this.rows, tx).findOneByOrFail({ id: approval.id });
  }

  /** The team's request `id`, or null when missing or another team's. */
  findVisible(teamId: string, id: string): Promise<ApprovalEntity | null> {
    return this.rows.findOneBy({ teamId, id });
  }

  /** A page of the team's requests, newest first, of one status when given. */
  async listPage(
    teamId: string,
    filter: { status?: ApprovalStatus; limit: number; offset: number },
  ): Promise<{ rows: ApprovalEntity[]; total: number }> {
    const where: FindOptionsWhere<ApprovalEntity> = {
      teamId,
      ...(filter.status ? { status: filter.status } : {}),
    };
    const [rows, total] = await this.rows.findAndCount({
      where,
      order: { createdAt: 'DESC', id: 'DESC' },
      take: filter.limit,
      skip: filter.offset,
    });
    return { rows, total };
  }

  /**
   * Moves a pending, unexpired request to `approved` or `rejected`.
   * @returns the updated row, or null when it was no longer pending or had expired (nothing changed)
   */
  async decide(
    teamId: string,
    id: string,
    status: 'approved' | 'rejected',
    decision: Decision,
    tx?: Transaction,
  ): Promise<ApprovalEntity | null> {
    const rows: ApprovalEntity[][] = await within(this.rows, tx).query(
      `UPDATE approvals SET status = $3, decided_by = $4, decided_at = $5, reason = $6
       WHERE team_id = $1 AND id = $2 AND status = 'pending' AND expires_at > $5
       RETURNING id`,
      [teamId, id, status, decision.by, decision.at, decision.reason],
    );
    return rows[0]?.length ? within(this.rows, tx).findOneByOrFail({ id }) : null;
  }

  /**
   * Moves the pending requests whose time ran out (at or before `now`) to `expired`: the team's,
   * or every team's when `teamId` is null (index approvals_pending_expiry).
   * @returns those moved, each once however many callers race
   */
  async expireDue(teamId: string | null, now: Date, tx?: Transaction): Promise<ApprovalEntity[]> {
    const [rows]: [ApprovalEntity[], number] = await within(this.rows, tx).query(
      `UPDATE approvals SET status = 'expired', decided_at = expires_at
       WHERE ($1::uuid IS NULL OR team_id = $1) AND status = 'pending' AND expires_at <= $2
       RETURNING id`,
      [teamId, now],
    );
    return rows.length ? within(this.rows, tx).findBy(rows.map((row) => ({ id: row.id }))) : [];
  }

  /** Records what running the approved request answered: `executed` with its result, or still `approved` with the error. */
  async settle(
    id: string,
    outcome: { result: Record<string, unknown> } | { error: string },
    at: Date,
    tx?: Transaction,
  ): Promise<void> {
    await within(this.rows, tx).update(
      { id, status: 'approved' },
      ('result' in outcome
        ? { status: 'executed', executedAt: at, result: outcome.result }
        : { error: outcome.error }) as QueryDeepPartialEntity<ApprovalEntity>,
    );
  }
}
