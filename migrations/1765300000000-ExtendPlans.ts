import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Plan limits (docs/plans.md, spec "Errors" 402 and "Limits"; the figures and their reasons:
 * docs/plans.md). NULL means no limit; enterprise has none (its retention, 365 days, is a policy, not a 402). `plan_since` dates a team's plan, for
 * the end of a trial (`trial_days` after it).
 */
export class ExtendPlans1765300000000 implements MigrationInterface {
  async up(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE plans
        ADD COLUMN provider_kinds text[],
        ADD COLUMN schedule_frequencies text[],
        ADD COLUMN compliance_frameworks text[],
        ADD COLUMN max_exports_per_month integer,
        ADD COLUMN max_members integer,
        ADD COLUMN trial_days integer;
      UPDATE plans SET provider_kinds = '{okta}', schedule_frequencies = '{daily,weekly,monthly}',
        compliance_frameworks = '{soc2}', max_exports_per_month = 1, max_members = 3
        WHERE name = 'free';
      UPDATE plans SET max_exports_per_month = 2, max_members = 10, trial_days = 14 WHERE name = 'trial';
      UPDATE plans SET max_exports_per_month = 4, max_members = 50 WHERE name = 'team';
      ALTER TABLE teams ADD COLUMN plan_since timestamptz NOT NULL DEFAULT now();
    `);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`
      ALTER TABLE teams DROP COLUMN plan_since;
      ALTER TABLE plans DROP COLUMN provider_kinds, DROP COLUMN schedule_frequencies,
        DROP COLUMN compliance_frameworks, DROP COLUMN max_exports_per_month, DROP COLUMN max_members,
        DROP COLUMN trial_days;
    `);
  }
}
