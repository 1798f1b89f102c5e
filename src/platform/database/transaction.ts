import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager, type ObjectLiteral, type Repository } from 'typeorm';

/**
 * An open database transaction, handed by TransactionRunner to the code it runs. Services pass it
 * on without looking inside; repositories write through it (`within`), so a change and the audit
 * event recording it commit or roll back together (docs/notifications.md).
 */
export type Transaction = EntityManager;

/** `rows` bound to `tx` when one is given, else `rows` itself (its own implicit transaction). */
export function within<E extends ObjectLiteral>(rows: Repository<E>, tx?: Transaction): Repository<E> {
  return tx ? tx.withRepository(rows) : rows;
}

/**
 * Runs SQL on `tx`, in the shape pg-boss takes as its `db` option, so a job is enqueued in the
 * same transaction as the change that calls for it (a rollback enqueues nothing).
 */
export function sqlExecutor(tx: Transaction): {
  executeSql(text: string, values: unknown[]): Promise<{ rows: unknown[] }>;
} {
  return {
    executeSql: async (text, values) => {
      if (!tx.queryRunner) throw new Error('sqlExecutor needs the manager of an open transaction');
      const result = await tx.queryRunner.query(text, values, true);
      return { rows: result.records };
    },
  };
}

/** Opens transactions on the service's database (READ COMMITTED, PostgreSQL's default). */
@Injectable()
export class TransactionRunner {
  constructor(private readonly dataSource: DataSource) {}

  /** Runs `work` in one transaction: committed when it resolves, rolled back when it throws. */
  run<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }
}
