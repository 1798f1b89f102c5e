import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A connection's own retention (docs/backups.md "Retention"): `retention_days` and
 * `retention_count` on its schedule, NULL for the plan's default; and the plan's bound on the
 * count (`max_retention_count`, NULL no bound), set to as many backups as a daily schedule makes
 * over the plan's `retention_days` (docs/plans.md).
 */
export class ScheduleRetention1766330000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE schedules
        ADD COLUMN retention_days integer CHECK (retention_days > 0),
        ADD COLUMN retention_count integer CHECK (retention_count > 0);
      ALTER TABLE plans ADD COLUMN max_retention_count integer;
      UPDATE plans SET max_retention_count = retention_days;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE plans DROP COLUMN max_retention_count;
      ALTER TABLE schedules DROP COLUMN retention_days, DROP COLUMN retention_count;
    `);
  }
}
