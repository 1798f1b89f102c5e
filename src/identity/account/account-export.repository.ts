import { Injectable } from '@nestjs/common';
import type pg from 'pg';
import pgCopy from 'pg-copy-streams';
import { DataSource, type QueryRunner } from 'typeorm';
import { scavengingEvery } from '@app/common/memory/scavenging.js';
import type { Transaction } from '@app/platform/database/transaction.js';
import { type ExportSection, TEAM_SQL } from './export-sections.js';
import { commaJoinedLines } from './comma-joined-lines.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * One REPEATABLE READ transaction on its own connection: every read sees the same snapshot, so
 * the bundle is consistent while the team keeps working. `release` rolls back what was not
 * committed and returns the connection; it is safe to call twice.
 */
export class ExportSnapshot {
  private cursors = 0;

  constructor(private readonly runner: QueryRunner) {}

  /** The open transaction, for writes that must commit with the export (its audit event). */
  get tx(): Transaction {
    return this.runner.manager;
  }

  /**
   * Takes the team's export lock for the transaction; must be its first statement, so the
   * snapshot sees any export committed before the lock was free.
   * @returns false when another export of the team holds it
   */
  async tryLock(teamId: string): Promise<boolean> {
    const [{ locked }] = (await this.runner.query(
      `SELECT pg_try_advisory_xact_lock(hashtextextended('account-export:' || $1, 0)) AS locked`,
      [teamId],
    )) as Array<{ locked: boolean }>;
    return locked;
  }

  /** When the team's last successful export completed, or null. */
  async lastCompletedAt(teamId: string): Promise<Date | null> {
    const [last] = (await this.runner.query(
      'SELECT max(completed_at) AS at FROM account_exports WHERE team_id = $1',
      [teamId],
    )) as Array<{ at: Date | null }>;
    return last.at;
  }

  /** Rows of `section` for the team. */
  async count(section: ExportSection, teamId: string): Promise<number> {
    const [{ count }] = (await this.runner.query(`SELECT count(*)::int AS count FROM (${section.sql}) s`, [
      teamId,
    ])) as Array<{ count: number }>;
    return count;
  }

  /** The team's own record as JSON values. */
  async team(teamId: string): Promise<unknown> {
    const [team] = (await this.runner.query(TEAM_SQL, [teamId])) as Array<{ row: unknown }>;
    return team.row;
  }

  /**
   * The section's rows as the inside of a JSON array (`{...},{...}`), streamed as bytes by
   * PostgreSQL's `COPY ... TO STDOUT` in the export's transaction: no row becomes a JavaScript
   * object or string, so the service's memory does not depend on the team's size. CSV format with
   * a delimiter and a quote character (0x02, 0x01) that jsonb's text never holds, so each line is
   * one row's JSON, unquoted and unescaped (PostgreSQL "COPY", File Formats).
   * @throws Error when `teamId` is not a UUID (COPY takes no bind parameters: it is inlined)
   */
  async *rows(section: ExportSection, teamId: string): AsyncGenerator<Buffer> {
    if (!UUID.test(teamId)) throw new Error('team id must be a UUID');
    const client = (await this.runner.connect()) as pg.PoolClient;
    const sql = section.sql.replaceAll('$1', client.escapeLiteral(teamId));
    const copy = client.query(
      pgCopy.to(
        `COPY (SELECT row::text FROM (${sql}) s) TO STDOUT WITH (FORMAT csv, DELIMITER E'\\x02', QUOTE E'\\x01')`,
      ),
    );
    // The socket's chunks are freed as they are sent, not tens of MB later (scavenging.ts).
    yield* scavengingEvery(commaJoinedLines(copy));
  }

  /** Records the successful export (it counts against the 7-day limit once committed). */
  async recordCompleted(teamId: string, userId: string, counts: Record<string, number>): Promise<void> {
    await this.runner.query(
      'INSERT INTO account_exports (team_id, requested_by, counts) VALUES ($1, $2, $3)',
      [teamId, userId, JSON.stringify(counts)],
    );
  }

  commit(): Promise<void> {
    return this.runner.commitTransaction();
  }

  async release(): Promise<void> {
    if (this.runner.isReleased) return;
    try {
      if (this.runner.isTransactionActive) await this.runner.rollbackTransaction();
    } finally {
      await this.runner.release();
    }
  }
}

/** The `account_exports` table and the snapshot an export reads (docs/account.md). */
@Injectable()
export class AccountExportRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** A new snapshot transaction on a connection of its own; the caller must `release` it. */
  async snapshot(): Promise<ExportSnapshot> {
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    const snapshot = new ExportSnapshot(runner);
    try {
      await runner.startTransaction('REPEATABLE READ');
    } catch (error) {
      await snapshot.release();
      throw error;
    }
    return snapshot;
  }
}
