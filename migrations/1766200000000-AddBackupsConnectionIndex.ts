import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Backups of one connection, newest first: the list filtered by connection (the API's most
 * frequent request, docs/benchmarks/api.md), its count, and a connection's last completed backup (the
 * base of an incremental, the diff and the timeline) read 100 rows instead of the team's 10,000.
 */
export class AddBackupsConnectionIndex1766200000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query('CREATE INDEX backups_connection_started ON backups (connection_id, started_at DESC)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP INDEX backups_connection_started');
  }
}
