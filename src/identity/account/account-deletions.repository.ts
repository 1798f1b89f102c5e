import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Transaction } from '@app/platform/database/transaction.js';

/** The `account_deletions` table: a team's pending deletion request (docs/account.md). */
@Injectable()
export class AccountDeletionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * Records the team's request unless one is pending.
   * @returns the pending request's date, and whether this call made it
   */
  async schedule(
    tx: Transaction,
    teamId: string,
    userId: string,
    scheduledFor: Date,
  ): Promise<{ scheduledFor: Date; created: boolean }> {
    const inserted = (await tx.query(
      `INSERT INTO account_deletions (team_id, requested_by, scheduled_for) VALUES ($1, $2, $3)
       ON CONFLICT (team_id) DO NOTHING RETURNING scheduled_for`,
      [teamId, userId, scheduledFor],
    )) as Array<{ scheduled_for: Date }>;
    if (inserted[0]) return { scheduledFor: inserted[0].scheduled_for, created: true };
    const [pending] = (await tx.query('SELECT scheduled_for FROM account_deletions WHERE team_id = $1', [
      teamId,
    ])) as Array<{ scheduled_for: Date }>;
    return { scheduledFor: pending.scheduled_for, created: false };
  }

  /** Removes the team's pending request. @returns its date, or null when none was pending */
  async cancel(tx: Transaction, teamId: string): Promise<Date | null> {
    const rows = (await tx.query('DELETE FROM account_deletions WHERE team_id = $1 RETURNING scheduled_for', [
      teamId,
    ])) as [Array<{ scheduled_for: Date }>, number];
    return rows[0][0]?.scheduled_for ?? null;
  }

  /** Teams whose grace period ended by `now`, and those whose deletion a crash left unfinished. */
  async due(now: Date): Promise<string[]> {
    const rows = (await this.dataSource.query(
      `SELECT team_id FROM account_deletions WHERE scheduled_for <= $1
       UNION SELECT team_id FROM deleted_accounts WHERE completed_at IS NULL`,
      [now],
    )) as Array<{ team_id: string }>;
    return rows.map((row) => row.team_id);
  }
}
