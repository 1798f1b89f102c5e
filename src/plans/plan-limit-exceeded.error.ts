import { HttpStatus } from '@nestjs/common';
import { ApiError } from '@app/common/errors.js';

/** The limits a plan sets (columns of `plans`, docs/plans.md). */
export type PlanLimit =
  | 'connections'
  | 'provider_kinds'
  | 'backups_per_day'
  | 'schedule_frequencies'
  | 'compliance_frameworks'
  | 'exports_per_month'
  | 'members'
  | 'retention_days'
  | 'retention_count'
  | 'trial_ended';

/**
 * 402 `plan_limit_exceeded` (spec "Errors"): `{ error, code, limit, plan }`, `limit` naming what
 * the team's plan does not allow, `plan` the plan's name.
 */
export class PlanLimitExceededError extends ApiError {
  constructor(
    readonly limit: PlanLimit,
    readonly plan: string,
    message: string,
  ) {
    super(HttpStatus.PAYMENT_REQUIRED, 'plan_limit_exceeded', message, undefined, { limit, plan });
  }
}
