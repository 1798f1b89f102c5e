import { Injectable } from '@nestjs/common';
import type { RecordedAuditEvent } from '@app/audit/audit-entry.js';
import { AuditService } from '@app/audit/audit.service.js';
import { sqlExecutor, type Transaction } from '@app/platform/database/transaction.js';
import { DiffService } from '@app/diff/diff.service.js';
import type { Job } from '@app/platform/jobs/job-payloads.js';
import { JobsService } from '@app/platform/jobs/jobs.service.js';
import { OnJob } from '@app/platform/jobs/on-job.decorator.js';
import { DriftTally } from './drift-findings.js';

export const DRIFT_ALERT_QUEUE = 'drift-alert';

/** A completed backup and the connection's previous completed one, to compare. */
export interface DriftAlertJobData {
  teamId: string;
  connectionId: string;
  org: string | null;
  fromBackupId: string;
  toBackupId: string;
}

declare module '@app/platform/jobs/job-payloads.js' {
  interface JobPayloads {
    'drift-alert': DriftAlertJobData;
  }
}

/**
 * The `drift-alert` job (docs/notifications.md): each completed backup that has a predecessor
 * enqueues one, in the transaction of its `backup.completed` event, so the backup itself never
 * waits for it. The job diffs the two snapshots with the diff feature (hashes first: its cost
 * grows with the changes, DESIGN section 5) and records `drift.detected`, which the notification
 * fan-out delivers, when a change is rated `high` or `critical`.
 */
@Injectable()
export class DriftAlertJob {
  constructor(
    private readonly jobs: JobsService,
    private readonly diff: DiffService,
    private readonly audit: AuditService,
  ) {
    audit.onRecorded((tx, event) => this.enqueue(tx, event));
  }

  private async enqueue(tx: Transaction, event: RecordedAuditEvent): Promise<void> {
    const details = event.details ?? {};
    const previous = details.previous_backup_id;
    if (event.action !== 'backup.completed' || typeof previous !== 'string' || !event.target.id) return;
    const data: DriftAlertJobData = {
      teamId: event.teamId,
      connectionId: String(details.connection_id),
      org: typeof details.org === 'string' ? details.org : null,
      fromBackupId: previous,
      toBackupId: event.target.id,
    };
    await this.jobs.sendWithin(sqlExecutor(tx), DRIFT_ALERT_QUEUE, [data]);
  }

  @OnJob({ queue: DRIFT_ALERT_QUEUE, expireInSeconds: 3600, retryLimit: 2, retryDelay: 30 })
  async handle(job: Job<'drift-alert'>): Promise<void> {
    const { teamId, connectionId, org, fromBackupId, toBackupId } = job.data;
    // Folded as found: the backup after a mass deletion differs by a million records or more.
    const tally = new DriftTally();
    await this.diff.visitInTeam(teamId, { fromBackupId, toBackupId }, (change) => tally.add(change));
    const findings = tally.findings();
    if (!findings) return;
    await this.audit.recordAlone({
      teamId,
      actor: { type: 'system', id: null },
      action: 'drift.detected',
      target: { type: 'connection', id: connectionId },
      outcome: 'success',
      details: {
        connection_id: connectionId,
        ...(org ? { org } : {}),
        from_backup_id: fromBackupId,
        to_backup_id: toBackupId,
        ...findings,
      },
    });
  }
}
