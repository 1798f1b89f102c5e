import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Backup schedules (spec "Schedule (per connection)", docs/schedules.md): at most one row per
 * connection; a connection without one has the default schedule. `next_run_at` is the slot the
 * scheduler claims next (null while disabled); the CHECKs keep the day fields set exactly for
 * the frequency they belong to, so a row can never describe two schedules at once.
 */
export class CreateSchedules1763900000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      CREATE TABLE schedules (
        connection_id uuid PRIMARY KEY REFERENCES connections (id) ON DELETE CASCADE,
        team_id uuid NOT NULL REFERENCES teams (id) ON DELETE CASCADE,
        enabled boolean NOT NULL,
        frequency text NOT NULL CHECK (frequency IN ('hourly', 'daily', 'weekly', 'monthly')),
        hour smallint NOT NULL CHECK (hour BETWEEN 0 AND 23),
        minute smallint NOT NULL DEFAULT 0 CHECK (minute BETWEEN 0 AND 59),
        day_of_week smallint CHECK (day_of_week BETWEEN 0 AND 6),
        day_of_month smallint CHECK (day_of_month BETWEEN 1 AND 28),
        timezone text NOT NULL,
        incremental_enabled boolean NOT NULL,
        full_backup_day smallint NOT NULL CHECK (full_backup_day BETWEEN 0 AND 6),
        next_run_at timestamptz,
        last_run_at timestamptz,
        last_backup_id uuid REFERENCES backups (id) ON DELETE SET NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((frequency = 'weekly') = (day_of_week IS NOT NULL)),
        CHECK ((frequency = 'monthly') = (day_of_month IS NOT NULL)),
        CHECK (enabled = (next_run_at IS NOT NULL))
      );
      CREATE INDEX schedules_due ON schedules (next_run_at) WHERE enabled;
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP TABLE schedules`);
  }
}
