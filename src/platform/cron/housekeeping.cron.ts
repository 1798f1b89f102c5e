import { Inject, Injectable } from '@nestjs/common';
import { Cron } from '@nestjs/schedule';
import { AccountDeletionJob } from '@app/identity/account/account-deletion.job.js';
import { APP_CONFIG } from '@app/platform/config/config.module.js';
import type { AppConfig } from '@app/platform/config/app-config.js';
import { WeeklyVerificationJob } from '@app/drills/weekly-verification.job.js';
import { ReportExpiryJob } from '@app/export/report-expiry.job.js';
import { ScoreHistoryJob } from '@app/scores/score-history.job.js';
import { ApprovalExpiryJob } from '@app/approvals/approval-expiry.job.js';

/**
 * The cron handlers of the service's housekeeping (docs/account.md, docs/export.md): thin, UTC, they only
 * enqueue (as BackupsCron), each run keyed so that one runs however many replicas tick.
 */
@Injectable()
export class HousekeepingCron {
  private readonly runsJobs: boolean;

  constructor(
    private readonly accountDeletion: AccountDeletionJob,
    private readonly reportExpiry: ReportExpiryJob,
    private readonly weeklyVerification: WeeklyVerificationJob,
    private readonly scoreHistory: ScoreHistoryJob,
    private readonly approvalExpiry: ApprovalExpiryJob,
    @Inject(APP_CONFIG) config: AppConfig,
  ) {
    this.runsJobs = config.ROLE !== 'api';
  }

  /** Daily: the account-deletion run of that day (spec "Limits": hard deletion within 30 days of the grace period's end). */
  @Cron('41 3 * * *', { name: 'enqueue-account-deletion', timeZone: 'UTC', waitForCompletion: true })
  async enqueueAccountDeletion(): Promise<void> {
    if (this.runsJobs) await this.accountDeletion.enqueue(new Date());
  }

  /** Hourly: the removal of the reports whose signed URL expired. */
  @Cron('23 * * * *', { name: 'enqueue-report-expiry', timeZone: 'UTC', waitForCompletion: true })
  async enqueueReportExpiry(): Promise<void> {
    if (this.runsJobs) await this.reportExpiry.enqueue(new Date());
  }

  /**
   * Mondays: the weekly verification drills of the schedules that ask for one (docs/backups.md "Verification
   * drills").
   */
  @Cron('29 2 * * 1', { name: 'enqueue-weekly-verification', timeZone: 'UTC', waitForCompletion: true })
  async enqueueWeeklyVerification(): Promise<void> {
    if (this.runsJobs) await this.weeklyVerification.enqueue(new Date());
  }

  /** Every five minutes: the approval requests past their deadline marked expired (docs/approvals.md). */
  @Cron('*/5 * * * *', { name: 'enqueue-approval-expiry', timeZone: 'UTC', waitForCompletion: true })
  async enqueueApprovalExpiry(): Promise<void> {
    if (this.runsJobs) await this.approvalExpiry.enqueue(new Date());
  }

  /** Daily: every connection's resilience and readiness reading of that day, and the deletion of those past retention (docs/scores.md "History"). */
  @Cron('7 0 * * *', { name: 'enqueue-score-history', timeZone: 'UTC', waitForCompletion: true })
  async enqueueScoreHistory(): Promise<void> {
    if (this.runsJobs) await this.scoreHistory.enqueue(new Date());
  }
}
