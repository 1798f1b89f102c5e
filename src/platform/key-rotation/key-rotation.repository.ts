import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { SealedColumn } from './sealed-columns.js';

/** One sealed value: its row's key (as text) and its SecretCipher token. */
export interface SealedRow {
  key: string;
  token: string;
}

/** The rows key rotation reads and rewrites, over every team (an operator's task, not a team's). */
@Injectable()
export class KeyRotationRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** Up to `limit` sealed values of `sealed` after the row keyed `after`, in key order. */
  sealedRows(sealed: SealedColumn, after: string | undefined, limit: number): Promise<SealedRow[]> {
    return this.db.query(
      `SELECT ${sealed.key}::text AS key, ${sealed.column} AS token FROM ${sealed.table}
        WHERE $1::text IS NULL OR ${sealed.key}::text > $1 ORDER BY ${sealed.key}::text LIMIT ${limit}`,
      [after ?? null],
    );
  }

  /**
   * Replaces one sealed value, only if it is still `previous` (a row re-sealed meanwhile by the
   * service itself is under the active key already).
   */
  async replace(sealed: SealedColumn, key: string, previous: string, token: string): Promise<void> {
    await this.db.query(
      `UPDATE ${sealed.table} SET ${sealed.column} = $1 WHERE ${sealed.key}::text = $2 AND ${sealed.column} = $3`,
      [token, key, previous],
    );
  }

  /** Up to `limit` completed backups (the ones with a snapshot) after id `after`, by id. */
  completedBackups(
    after: string | undefined,
    limit: number,
  ): Promise<Array<{ id: string; storage_key: string }>> {
    return this.db.query(
      `SELECT id, storage_key FROM backups WHERE status = 'completed' AND ($1::uuid IS NULL OR id > $1)
        ORDER BY id LIMIT ${limit}`,
      [after ?? null],
    );
  }
}
