import { Injectable } from '@nestjs/common';
import { FRAMEWORK_IDS, type FrameworkId } from '@libs/compliance/frameworks/framework-types.js';
import type { Actor } from '@app/common/actor.js';
import type { PlanSummaryDto } from './dto/plan-summary.dto.js';
import { PlanLimitExceededError } from './plan-limit-exceeded.error.js';
import { PlansRepository, type TeamPlan } from './plans.repository.js';

const DAY_MS = 24 * 3600 * 1000;

/** Whose plan a check reads: a caller, or a team a job acts for (only its id is read). */
export type PlanHolder = Pick<Actor, 'teamId'>;

/**
 * Plan limits (spec "Errors" 402, "Limits"; the figures: docs/plans.md). Each check is
 * made by the service that owns the action, as its first step, so every path to the action (a
 * route, a report, a scheduled job) passes it; it runs before the action does anything and throws PlanLimitExceededError (402 `plan_limit_exceeded`,
 * `{ limit, plan }`); a plan's NULL is no limit, so enterprise (DEFAULT_PLAN) passes them all.
 * A trial past its end refuses every limited action (`trial_ended`).
 */
@Injectable()
export class PlanLimitsService {
  constructor(private readonly plans: PlansRepository) {}

  /** @throws PlanLimitExceededError `provider_kinds` or `connections` */
  async assertCanAddConnection(actor: PlanHolder, provider: string, now = new Date()): Promise<void> {
    const plan = await this.planOf(actor, now);
    if (plan.providerKinds && !plan.providerKinds.includes(provider))
      throw exceeded(
        plan,
        'provider_kinds',
        `The ${plan.plan} plan connects ${plan.providerKinds.join(', ')} only`,
      );
    if (
      plan.maxConnections !== null &&
      (await this.plans.countConnections(actor.teamId)) >= plan.maxConnections
    )
      throw exceeded(
        plan,
        'connections',
        `The ${plan.plan} plan allows ${plan.maxConnections} connection(s)`,
      );
  }

  /** A manual backup: at most the plan's number since 00:00 UTC. @throws PlanLimitExceededError `backups_per_day` */
  async assertCanRunBackup(actor: PlanHolder, now = new Date()): Promise<void> {
    const plan = await this.planOf(actor, now);
    if (plan.maxBackupsPerDay === null) return;
    if ((await this.plans.countManualBackupsSince(actor.teamId, startOfUtcDay(now))) >= plan.maxBackupsPerDay)
      throw exceeded(
        plan,
        'backups_per_day',
        `The ${plan.plan} plan allows ${plan.maxBackupsPerDay} backups a day`,
      );
  }

  /** @throws PlanLimitExceededError `schedule_frequencies` */
  async assertScheduleFrequency(actor: PlanHolder, frequency: string, now = new Date()): Promise<void> {
    const plan = await this.planOf(actor, now);
    if (plan.scheduleFrequencies && !plan.scheduleFrequencies.includes(frequency))
      throw exceeded(
        plan,
        'schedule_frequencies',
        `The ${plan.plan} plan schedules ${plan.scheduleFrequencies.join(', ')} backups only`,
      );
  }

  /**
   * A connection's own retention (docs/backups.md "Retention"): `days` at most the plan's
   * `retention_days`, `count` at most its `max_retention_count`; null (the plan's default) and
   * undefined (unchanged) always pass. @throws PlanLimitExceededError `retention_days` or
   * `retention_count`
   */
  async assertRetention(
    actor: PlanHolder,
    { days, count }: { days?: number | null; count?: number | null },
    now = new Date(),
  ): Promise<void> {
    const plan = await this.planOf(actor, now);
    if (days != null && plan.retentionDays !== null && days > plan.retentionDays)
      throw exceeded(
        plan,
        'retention_days',
        `The ${plan.plan} plan keeps backups ${plan.retentionDays} days at most`,
      );
    if (count != null && plan.maxRetentionCount !== null && count > plan.maxRetentionCount)
      throw exceeded(
        plan,
        'retention_count',
        `The ${plan.plan} plan keeps the newest ${plan.maxRetentionCount} backups at most`,
      );
  }

  /** @throws PlanLimitExceededError `compliance_frameworks` */
  async assertComplianceFramework(actor: PlanHolder, framework: string, now = new Date()): Promise<void> {
    const plan = await this.planOf(actor, now);
    if (plan.complianceFrameworks && !plan.complianceFrameworks.includes(framework))
      throw exceeded(
        plan,
        'compliance_frameworks',
        `The ${plan.plan} plan checks ${plan.complianceFrameworks.join(', ')} only`,
      );
  }

  /**
   * The compliance frameworks the team's plan checks, in `FRAMEWORK_IDS` order (the audit pack,
   * docs/export.md).
   */
  async complianceFrameworks(actor: PlanHolder, now = new Date()): Promise<FrameworkId[]> {
    const plan = await this.planOf(actor, now);
    return FRAMEWORK_IDS.filter((id) => !plan.complianceFrameworks || plan.complianceFrameworks.includes(id));
  }

  /** Account exports in the calendar month (UTC). @throws PlanLimitExceededError `exports_per_month` */
  async assertCanExport(actor: PlanHolder, now = new Date()): Promise<void> {
    const plan = await this.planOf(actor, now);
    if (plan.maxExportsPerMonth === null) return;
    if ((await this.plans.countExportsSince(actor.teamId, startOfUtcMonth(now))) >= plan.maxExportsPerMonth)
      throw exceeded(
        plan,
        'exports_per_month',
        `The ${plan.plan} plan allows ${plan.maxExportsPerMonth} exports a month`,
      );
  }

  /** Members plus open invitations. @throws PlanLimitExceededError `members` */
  async assertCanInvite(actor: PlanHolder, now = new Date()): Promise<void> {
    const plan = await this.planOf(actor, now);
    if (plan.maxMembers !== null && (await this.plans.countSeats(actor.teamId)) >= plan.maxMembers)
      throw exceeded(plan, 'members', `The ${plan.plan} plan allows ${plan.maxMembers} members`);
  }

  /**
   * The team's plan, its limits and what is used of each, counted as the checks above count
   * (GET /api/me). Never throws for an ended trial: it says when the trial ended.
   * @throws Error when the team has no plan (it does not exist)
   */
  async summary(teamId: string, now = new Date()): Promise<PlanSummaryDto> {
    const plan = await this.plans.planOf(teamId);
    if (!plan) throw new Error(`Team ${teamId} has no plan`);
    const [connections, backups, exports, members] = await Promise.all([
      this.plans.countConnections(teamId),
      this.plans.countManualBackupsSince(teamId, startOfUtcDay(now)),
      this.plans.countExportsSince(teamId, startOfUtcMonth(now)),
      this.plans.countSeats(teamId),
    ]);
    return {
      name: plan.plan,
      since: plan.planSince.toISOString(),
      trial_ends_at:
        plan.trialDays === null
          ? null
          : new Date(plan.planSince.getTime() + plan.trialDays * DAY_MS).toISOString(),
      limits: {
        connections: plan.maxConnections,
        provider_kinds: plan.providerKinds,
        manual_backups_per_day: plan.maxBackupsPerDay,
        schedule_frequencies: plan.scheduleFrequencies,
        compliance_frameworks: plan.complianceFrameworks,
        exports_per_month: plan.maxExportsPerMonth,
        members: plan.maxMembers,
        retention_days: plan.retentionDays,
        retention_count: plan.maxRetentionCount,
      },
      usage: {
        connections,
        manual_backups_today: backups,
        exports_this_month: exports,
        members,
      },
    };
  }

  /** Moves a team to `plan` (CLI team:plan). @returns false when the team or the plan is unknown */
  setPlan(teamId: string, plan: string): Promise<boolean> {
    return this.plans.setPlan(teamId, plan);
  }

  private async planOf(actor: PlanHolder, now: Date): Promise<TeamPlan> {
    const plan = await this.plans.planOf(actor.teamId);
    if (!plan) throw new Error(`Team ${actor.teamId} has no plan`);
    if (plan.trialDays !== null && plan.planSince.getTime() + plan.trialDays * DAY_MS <= now.getTime())
      throw exceeded(plan, 'trial_ended', `The ${plan.trialDays}-day trial has ended`);
    return plan;
  }
}

function startOfUtcDay(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
}

function startOfUtcMonth(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

function exceeded(
  plan: TeamPlan,
  limit: ConstructorParameters<typeof PlanLimitExceededError>[0],
  message: string,
) {
  return new PlanLimitExceededError(limit, plan.plan, `${message}; upgrade to do more`);
}
