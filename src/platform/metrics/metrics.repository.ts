import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Transaction } from '@app/platform/database/transaction.js';

/** What the metrics of one finished backup or restore read from its row (times in seconds). */
export interface RunFacts {
  provider: string;
  /** completed_at - started_at, seconds; null while either is unset */
  durationSeconds: number | null;
  /** records written over every resource type (backups; 0 for restores) */
  objects: number;
  /** stored bytes of the snapshot (backups; 0 for restores) */
  bytes: number;
}

/** A queue's jobs waiting for a worker (pg-boss states `created` and `retry`). */
export interface QueueDepth {
  queue: string;
  waiting: number;
  /** age of the oldest job already due, seconds; 0 when none is due */
  oldestDueSeconds: number;
}

/** The last completed backup of a connection, as a Unix time in seconds. */
export interface LastBackup {
  connectionId: string;
  provider: string;
  completedAtSeconds: number;
}

/** The rows the Prometheus metrics read: runs, pg-boss's job table, last backups. */
@Injectable()
export class MetricsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /**
   * The facts of run `id` of `table`, read in `tx` (the transaction recording its audit event, so
   * the run's just-written end is visible), or null when there is no such row.
   * @throws the driver's error, once the transaction is back where it was before the read
   */
  async runFacts(tx: Transaction, table: 'backups' | 'restores', id: string): Promise<RunFacts | null> {
    const sizeColumns =
      table === 'backups'
        ? `r.size::float8 AS bytes,
           (SELECT coalesce(sum(value::bigint), 0) FROM jsonb_each_text(r.resource_counts))::float8 AS objects`
        : `0::float8 AS bytes, 0::float8 AS objects`;
    // Under a savepoint: a failed read must not abort the transaction of the change it counts.
    await tx.query('SAVEPOINT run_metrics');
    let rows: Array<{ provider: string; duration: number | null; bytes: number; objects: number }>;
    try {
      rows = await tx.query(
        `SELECT c.provider,
                extract(epoch FROM r.completed_at - r.started_at)::float8 AS duration,
                ${sizeColumns}
           FROM ${table} r JOIN connections c ON c.id = r.connection_id
          WHERE r.id = $1`,
        [id],
      );
    } catch (error) {
      await tx.query('ROLLBACK TO SAVEPOINT run_metrics');
      throw error;
    }
    await tx.query('RELEASE SAVEPOINT run_metrics');
    const row = rows[0];
    if (!row) return null;
    return { provider: row.provider, durationSeconds: row.duration, objects: row.objects, bytes: row.bytes };
  }

  /** Depth and oldest due job of every pg-boss queue with waiting jobs. */
  async queueDepths(): Promise<QueueDepth[]> {
    const rows: Array<{ name: string; waiting: number; oldest: number | null }> = await this.dataSource.query(
      `SELECT name, count(*)::int AS waiting,
              extract(epoch FROM now() - min(start_after) FILTER (WHERE start_after <= now()))::float8 AS oldest
         FROM pgboss.job WHERE state < 'active' GROUP BY name`,
    );
    return rows.map((row) => ({ queue: row.name, waiting: row.waiting, oldestDueSeconds: row.oldest ?? 0 }));
  }

  /** Every connection's last completed backup (connections never backed up are absent). */
  async lastBackups(): Promise<LastBackup[]> {
    const rows: Array<{ connection_id: string; provider: string; at: number }> = await this.dataSource.query(
      `SELECT b.connection_id, c.provider, extract(epoch FROM max(b.completed_at))::float8 AS at
         FROM backups b JOIN connections c ON c.id = b.connection_id
        WHERE b.status = 'completed' GROUP BY b.connection_id, c.provider`,
    );
    return rows.map((row) => ({
      connectionId: row.connection_id,
      provider: row.provider,
      completedAtSeconds: row.at,
    }));
  }
}
