import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A schedule may switch on a weekly verification drill of its connection's latest completed
 * backup (docs/schedules.md): off for every existing schedule.
 */
export class AddScheduleWeeklyVerification1765800000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE schedules ADD COLUMN verify_weekly boolean NOT NULL DEFAULT false');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE schedules DROP COLUMN verify_weekly');
  }
}
