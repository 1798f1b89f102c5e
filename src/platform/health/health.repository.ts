import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';

/** The database as the health check sees it. */
@Injectable()
export class HealthRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** @throws whatever the driver throws when PostgreSQL does not answer. */
  async ping(): Promise<void> {
    await this.dataSource.query('SELECT 1');
  }

  /**
   * The migrations this build carries that the database has not recorded as run (TypeORM's
   * `migrations` table), by name; empty when the schema is current.
   * @throws whatever the driver throws when PostgreSQL does not answer
   */
  async pendingMigrations(): Promise<string[]> {
    const table = this.dataSource.options.migrationsTableName ?? 'migrations';
    const rows: Array<{ name: string }> = await this.dataSource.query(`SELECT name FROM "${table}"`);
    const applied = new Set(rows.map((row) => row.name));
    return this.dataSource.migrations
      .map((migration) => migration.name ?? migration.constructor.name)
      .filter((name) => !applied.has(name));
  }
}
