import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A drift reading that the provider's audit log could not cover whole (docs/scores.md "Drift"):
 * `counted_from` is where counting began (the last backup's start, or the oldest instant the log
 * still held when it no longer reaches back to that backup), `incomplete_reason` says why it is
 * later than `since`. Null for readings taken before: they counted from `since`.
 */
export class AddDriftLogWindow1796675162753 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(
      'ALTER TABLE connection_drift ADD COLUMN counted_from timestamptz, ADD COLUMN incomplete_reason text',
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('ALTER TABLE connection_drift DROP COLUMN counted_from, DROP COLUMN incomplete_reason');
  }
}
