import { Injectable } from '@nestjs/common';
import type { AuditEntry } from '@app/audit/audit-entry.js';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { type RunContext, TrackedRun } from '@app/platform/jobs/tracked-run/tracked-run-kind.js';
import { describeBackupReadFailure, TrackedRunJob } from '@app/platform/jobs/tracked-run/tracked-run-job.js';
import { TrackedRunRunner } from '@app/platform/jobs/tracked-run/tracked-run.runner.js';
import { complianceCheckEntry } from './compliance-audit.js';
import type { ComplianceCheckEntity } from './compliance-check.entity.js';
import { ComplianceChecksRepository } from './compliance-checks.repository.js';
import { ComplianceService } from './compliance.service.js';

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    'compliance-check': { checkId: string };
  }
}

/**
 * The `compliance-check` job (docs/decisions.md "A compliance check stays in the request by
 * default"): checks a large backup outside the request, stores the result as a check in the
 * request would, and names it in the run for the client to poll. It reads the snapshot only, so
 * a job whose worker died before taking it is tried again; one taken and abandoned is failed by
 * the stale sweep.
 */
@TrackedRun()
@Injectable()
export class ComplianceCheckJob extends TrackedRunJob<ComplianceCheckEntity, ComplianceChecksRepository> {
  readonly noun = 'compliance check';
  readonly internalErrorMessage = 'Internal error while checking the backup (see the worker log)';
  readonly staleMessage = 'The worker checking the backup stopped responding; ask for the check again';

  constructor(
    runner: TrackedRunRunner,
    runs: ComplianceChecksRepository,
    private readonly compliance: ComplianceService,
  ) {
    super(runner, runs);
  }

  @OnJob({ queue: 'compliance-check', expireInSeconds: 2 * 3600, retryLimit: 1, retryDelay: 10 })
  handle(job: Job<'compliance-check'>): Promise<void> {
    return this.start(job.data.checkId, job);
  }

  async execute(run: ComplianceCheckEntity, context: RunContext<ComplianceCheckEntity>): Promise<void> {
    await context.progress(10, 'Reading the backup');
    const result = await this.compliance.runQueued(run);
    await context.finish(
      { status: 'completed', fields: { resultId: result.id } },
      complianceCheckEntry('compliance.checked', run, { framework: run.framework, score: result.score }),
    );
  }

  /** A message safe to store and show: what the service refused, or why the backup cannot be read. */
  describe(error: unknown): string | undefined {
    return describeBackupReadFailure(error);
  }

  failedEntry(run: ComplianceCheckEntity, message: string): AuditEntry {
    return complianceCheckEntry('compliance.check_failed', run, { framework: run.framework, error: message });
  }
}
